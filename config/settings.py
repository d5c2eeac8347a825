"""Settings for Shuanglu, read from the environment.

Zero set-up: SQLite under var/, in-memory channel layer and cache, Celery
tasks in-process. ``DATABASE_URL`` switches to PostgreSQL (psycopg 3) and
``REDIS_URL`` to Redis for the channel layer, the cache and Celery.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import envbool, envfloat, envint, envlist, envstr
from runtime import pgpool

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = envbool("DEBUG", True)

SECRET_KEY = envstr("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver" if DEBUG else "")
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "accounts",
    "games",
    "ai_worker",
    "learning",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.PreferredLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.middleware.ThrottleMiddleware",
    "accounts.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.preferences",
            ],
        },
    },
]

# Database: SQLite under var/ unless DATABASE_URL is given.
VAR_DIR = Path(envstr("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASE_URL = envstr("DATABASE_URL")
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL or f"sqlite:///{VAR_DIR / 'shuanglu.sqlite3'}", conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's backend, its writers in one process queued on a lock rather
    # than in SQLite's sleeping retries (runtime/sqlite/base.py).
    DATABASES["default"]["ENGINE"] = "runtime.sqlite"
    # Web requests, in-process task threads and test servers write side by side:
    # take the write lock up front and wait for it rather than fail "locked".
    # Kept open (like PostgreSQL's): in WAL mode closing the last connection
    # checkpoints and fsyncs, which cost ~8 ms per move when every socket
    # command closed it (bench/live.py).
    DATABASES["default"]["CONN_MAX_AGE"] = 60
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        # WAL: readers never wait for the writer, and a commit appends to the
        # log instead of an fsync'd rewrite (27 ms -> well under 1 ms per move
        # on this machine, bench/live.py). NORMAL is durable across process
        # crashes; only an OS crash may lose the last commits. The game
        # sockets' thread leaves the log's checkpoints to a thread of its own
        # (runtime/checkpoint.py); other connections checkpoint as SQLite does.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file (not in-memory) test database, so a daphne subprocess started by
    # tests/conftest.py can open it; one per test run, since helpers and CI
    # may run several suites in this checkout at once.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test_shuanglu_{os.getpid()}.sqlite3")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A bounded pool per process (psycopg 3's, through Django 5.2): every
    # thread of the process (requests, game sockets, channels' auth, task
    # threads) borrows a connection for one call and gives it back; past
    # DB_POOL_SIZE a caller waits, up to DB_POOL_TIMEOUT seconds, instead of
    # opening one more. A connection is checked before it is lent, so one
    # left dead by a database restart is replaced. See the README's budget.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them instead
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # psycopg_pool's check_connection
    # A refused connection tried again every second, not after 1, 2, 4, 8 …
    # seconds (runtime/pgpool.py says why).
    pgpool.retry_every_second()
    DATABASES["default"]["OPTIONS"] = {
        # Parameters bound on the server, and a statement a connection has
        # run twice prepared there: parsed and planned once per connection,
        # not for every command (Django merges them into the SQL text by
        # default, which nothing prepares). A pooler in transaction mode in
        # front of PostgreSQL would need its support for prepared statements.
        "server_side_binding": True,
        "prepare_threshold": 2,
        "pool": {
            "min_size": 1,
            "max_size": envint("DB_POOL_SIZE", 8),
            "timeout": envint("DB_POOL_TIMEOUT", 30),
        },
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis: channel layer, cache and Celery broker, or in-process defaults.
REDIS_URL = envstr("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a broadcast is one PUBLISH and arrives pushed on
            # one subscribed connection, where channels_redis's list-based
            # layer took about seven round trips per message; measured with
            # bench/live.py. Delivery is at most once, which the sockets
            # already allow for: a client that sees a version gap refetches.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # Room for connections (redis-py's asyncio pool raises past 100
            # rather than waits) and reads that outlast redis-py 8's 5 s
            # default, which closed idle sockets with 1011.
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "max_connections": 2000, "socket_timeout": 15}],
                # Pub/sub channels are the Redis server's, not its database's:
                # two sites (or benches) on one server, each on its own
                # database, received each other's game states. The database
                # number in every channel's name keeps them apart.
                "prefix": f"asgi-db{urlsplit(REDIS_URL).path.strip('/') or '0'}-",
            },
        }
    }
    CACHES: dict[str, dict[str, Any]] = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "runtime.layers.InMemoryChannelLayer"}}
    # Django's 300 entries held the tutor's rankings for seconds only at 200
    # games, pushed out by the reviews' (bench/tutor.py: 60 % of End turns
    # found theirs gone); a ranking pickled is about 5 KB.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    }

# Celery: a broker only when REDIS_URL (or CELERY_BROKER_URL) is given;
# otherwise ai_worker.dispatch runs the same task code in-process.
CELERY_BROKER_URL = envstr("CELERY_BROKER_URL", REDIS_URL)
# Without one, the in-process jobs' searches run in child processes
# (runtime.inprocess, runtime.children), started as they are needed and
# ended idle: up to this many for play, besides one for the tutor's check on
# a command and one at nice 19 for reviews when play's are busy; 0 keeps them
# on the web process's threads (the tests' own process does).
ENGINE_PROCESSES = envint("ENGINE_PROCESSES", 2)
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes every database connection before and after each
# task unless this is set: a new PostgreSQL connection for every computer turn
# (~25 ms of the reply here, bench/live.py). Connections are kept instead, and
# ai_worker.tasks drops stale or broken ones around each task as Django does
# around each request (CONN_MAX_AGE).
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_TASK_SOFT_TIME_LIMIT = envint("CELERY_TASK_SOFT_TIME_LIMIT", 120)
CELERY_TASK_TIME_LIMIT = envint("CELERY_TASK_TIME_LIMIT", 180)
# A worker that takes several queues empties them in the order of its -Q
# (moves, hints, analysis): a game in progress goes before study work.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", 600),
    "queue_order_strategy": "priority",
}
# No CELERY_TASK_ROUTES: each task declares its queue (moves, hints or analysis).
# A review runs in slices this long, each queued behind what came meanwhile
# (learning.study.queue), so a hint or a board job never waits for a whole game.
REVIEW_SLICE_SECONDS = envfloat("REVIEW_SLICE_SECONDS", 1.5)
# What one user, or one address, may keep waiting on the analysis queue:
# imported games (counted per game) and analysis-board jobs.
STUDY_BUDGETS = {
    "imports_user": envint("STUDY_IMPORTS_PER_USER", 100),
    "imports_address": envint("STUDY_IMPORTS_PER_ADDRESS", 200),
    "board_visitor": envint("STUDY_BOARD_JOBS_PER_VISITOR", 8),
    "board_address": envint("STUDY_BOARD_JOBS_PER_ADDRESS", 16),
    # Rollouts (精确分析) one visitor may ask for in a day; one runs at a time.
    "rollouts_day": envint("STUDY_ROLLOUTS_PER_DAY", 20),
}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Content-Security-Policy (django-csp): scripts and styles only from this
# site (every script is a file; the page data are JSON blocks, never run),
# sockets to this site; inline style attributes stay for the dice-chart bars.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Login throttling (accounts/throttling.py): the locks are counted in the
# cache; django-axes only records the attempts (AXES_LOCK_OUT_AT_FAILURE off).
AXES_LOCK_OUT_AT_FAILURE = False
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "accounts.throttling.client_ip"
# (limit, seconds) per key: wrong passwords for one username from one
# address, from one address across usernames, for one username across
# addresses, and from one browser the owner signed in from before (which no
# other lock holds); guest accounts made and password-reset mails asked for
# from one address.
THROTTLES = {
    "login-pair": (AXES_FAILURE_LIMIT, 15 * 60),
    "login-address": (envint("LOGIN_ADDRESS_FAILURES", 30), 15 * 60),
    "login-username": (envint("LOGIN_USERNAME_FAILURES", 20), 15 * 60),
    "login-device": (envint("LOGIN_DEVICE_FAILURES", 10), 15 * 60),
    "guest": (envint("GUESTS_PER_ADDRESS_HOUR", 30), 3600),
    "password-reset": (envint("PASSWORD_RESETS_PER_ADDRESS_HOUR", 5), 3600),
}
# A login lock's length grows with each lock of the same key in a day:
# 1 minute, 5, 15, an hour, 4 hours, then a day.
LOCKOUT_STEPS = (60, 300, 900, 3600, 4 * 3600, 24 * 3600)
# The reverse proxies in front (addresses or networks): X-Forwarded-For is
# believed only as far as these wrote it. Empty: REMOTE_ADDR is the client.
TRUSTED_PROXIES = tuple(envlist("TRUSTED_PROXIES"))

# The game socket (games/live/consumers.py): commands at once and per second
# after that, refused commands in a row before the socket is closed; how
# often a socket checks that its session still holds; how long a hint for
# one (game, version) counts as asked for; and the replies a client may
# leave unread before its socket is closed (bytes, runtime/serve.py).
SOCKET_COMMAND_BURST = envint("SOCKET_COMMAND_BURST", 20)
SOCKET_COMMANDS_PER_SECOND = envint("SOCKET_COMMANDS_PER_SECOND", 5)
SOCKET_COMMAND_STRIKES = envint("SOCKET_COMMAND_STRIKES", 20)
SOCKET_SESSION_CHECK_SECONDS = envint("SOCKET_SESSION_CHECK_SECONDS", 60)
# A second ask for the same hint within this many seconds joins the first
# job; the page offers 重试 (retry) after WAIT_RETRY_SECONDS, which is longer,
# so a retry always queues the job again (a lost message or worker mended).
HINT_REQUEST_SECONDS = 10
# How long a hint or an analysis-board job may keep the page waiting before
# the page offers a retry; a board job not finished this long after it was
# queued or started, and no longer in the queue, is lost (analysis_board).
WAIT_RETRY_SECONDS = envint("WAIT_RETRY_SECONDS", 15)
BOARD_JOB_LOST_SECONDS = envint("BOARD_JOB_LOST_SECONDS", 45)
SOCKET_MAX_UNSENT_BYTES = envint("SOCKET_MAX_UNSENT_BYTES", 256 * 1024)

# Guests keep their account as long as the cookie lives.
SESSION_COOKIE_AGE = envint("SESSION_COOKIE_DAYS", 90) * 24 * 3600
# A guest account unused this long is deleted with its games (accounts.tasks,
# daily in beat): its cookie ended SESSION_COOKIE_DAYS after its last sign-in,
# so nobody can reach it; never shorter than the cookie.
GUEST_RETENTION_DAYS = max(envint("GUEST_RETENTION_DAYS", 120), SESSION_COOKIE_AGE // 86400 + 1)

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", _("Simplified Chinese")), ("en", _("English"))]
# The site's catalogues (the project's, then each app's) come before Django's
# bundled ones, so the site's words win: our 筛选, not admin's 过滤器.
LOCALE_PATHS = [BASE_DIR / "locale"] + [
    BASE_DIR / app / "locale" for app in INSTALLED_APPS if (BASE_DIR / app / "locale").is_dir()
]
TIME_ZONE = envstr("TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on every request without it

# Mail goes to the console until EMAIL_HOST names an SMTP server.
EMAIL_HOST = envstr("EMAIL_HOST")
EMAIL_BACKEND = envstr(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = envint("EMAIL_PORT", 25)
EMAIL_HOST_USER = envstr("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = envstr("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "Shuanglu <noreply@localhost>")

if not DEBUG:
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
}
