"""The dialogue: the intent of each message is decided once (``intent.decide``) and dispatched to
one small handler (``handlers.HANDLERS``); no handler reads the message's text again."""
