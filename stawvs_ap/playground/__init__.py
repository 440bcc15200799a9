"""The playground: one local page to play Stawvs in a browser (``stawvs-ap playground``).

Every file of the page ships in this package (``assets/``: no other site is
asked for anything, so it works offline); :mod:`.app` serves them with the
service. It needs the ``web`` extra (``pip install "stawvs-ap[web]"``).
"""
