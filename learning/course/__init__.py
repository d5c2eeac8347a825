"""学棋: a hands-on course from zero, on the same board as the play page.

``lessons`` holds the lessons as data (a position, the dice, the goal and
the words of each task), ``check`` judges a person's steps and answers with
the engine, ``progress`` keeps each person's stars (``models``), and
``views`` serves the map at /learn/ and the lesson pages.
"""
