from arbiter_cli.main import app

app()
