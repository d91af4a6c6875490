"""HTTP routers: thin, each calls one service method."""
