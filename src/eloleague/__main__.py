from eloleague.cli import main

main()
