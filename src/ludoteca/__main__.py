"""``python -m ludoteca`` runs the command line."""

from ludoteca.launch import main

main()
