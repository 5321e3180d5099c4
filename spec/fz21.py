"""(placeholder, filled in by its source module)"""
