# placeholder
def write(out, meta):
    pass
