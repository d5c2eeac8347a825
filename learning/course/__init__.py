"""学棋: a hands-on course from zero, on the same board as the play page.

``lessons`` holds the lessons in order, as data (``shapes`` says what a
task is: a position, the dice, the goal and its words; ``lessons_moving``,
``lessons_rules`` and ``lessons_strategy`` hold the three parts of the
course), ``quiz`` draws each lesson's closing quiz, ``check`` judges a
person's steps and answers with the engine, ``progress`` keeps each person's stars (``models``), and
``views`` serves the map at /learn/ and the lesson pages.
"""
