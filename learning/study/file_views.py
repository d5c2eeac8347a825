"""Match files (.mat) from the history and review pages: download and upload, thin views."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from accounts.throttling import client_ip
from games.access import owned_game
from games.damage_page import damaged_or_none
from games.engine import Side
from games.engine.matfile import MAX_FILE_BYTES, MatFileError, MatProblem
from games.matfiles import describe_mat_error, export_text, exportable, file_name
from games.services import AlreadyImportedError, decode_upload, import_match_file
from learning.study import queue as study_queue

# The import form's "I played as" choices: the column stored as the person's.
MY_SIDES: dict[str, Side | None] = {"left": Side.LIGHT, "right": Side.DARK, "neither": None}


@require_GET
def export_mat(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's match file (its whole match for a match game), as a download."""
    game = owned_game(request, game_id)
    damaged = damaged_or_none(request, game)
    if damaged is not None:
        return damaged
    if not exportable(game):
        why = _("This game began from a position set up on the board: a match file cannot hold it.")
        messages.error(request, why)
        return redirect("learning:review", game_id=game.pk)
    response = HttpResponse(export_text(game), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file_name(game)}"'
    return response


@require_POST
def import_mat(request: HttpRequest) -> HttpResponse:
    """Store an uploaded match file as the user's games; say what came of it."""
    if not request.user.is_authenticated:
        raise Http404
    upload = request.FILES.get("file")
    mine = request.POST.get("mine", "neither")
    if mine not in MY_SIDES:
        why = _("Say which side was yours: the left player, the right player or neither.")
        messages.error(request, _("The file was not imported. %(why)s") % {"why": why})
        return redirect("learning:history")
    try:
        if upload is None:
            raise MatFileError(MatProblem.NO_GAMES)
        if upload.size is not None and upload.size > MAX_FILE_BYTES:
            raise MatFileError(MatProblem.TOO_LARGE, params={"limit": MAX_FILE_BYTES})
        address = client_ip(request)
        imported = import_match_file(
            request.user,
            decode_upload(upload.read(MAX_FILE_BYTES + 1)),
            MY_SIDES[mine],
            address=address,
            admit=study_queue.admit_import(request.user.pk, address),
        )
    except MatFileError as error:
        why = describe_mat_error(error)
    except AlreadyImportedError as error:
        when = date_format(localtime(error.when), "DATETIME_FORMAT")
        why = _("You imported this file on %(when)s; its games are in your history.") % {
            "when": when
        }
    except study_queue.StudyQueueFullError as error:
        why = error.message
    else:
        why = ""
    if why:
        messages.error(request, _("The file was not imported. %(why)s") % {"why": why})
        return redirect("learning:history")
    count = len(imported.games)
    if MY_SIDES[mine] is None:
        messages.success(
            request,
            ngettext(
                "Imported %(count)d game for study; its review has been queued. It is listed "
                "apart and is not in your counts, progress or practice.",
                "Imported %(count)d games for study; their reviews have been queued. They are "
                "listed apart and are not in your counts, progress or practice.",
                count,
            )
            % {"count": count},
        )
        return redirect("learning:history")
    messages.success(
        request,
        ngettext(
            "Imported %(count)d game; its review has been queued.",
            "Imported %(count)d games; their reviews have been queued.",
            count,
        )
        % {"count": count},
    )
    return redirect("learning:history")
