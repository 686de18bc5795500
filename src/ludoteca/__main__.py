"""``python -m ludoteca`` runs the command line."""

from ludoteca.cli import main

main()
