"""preferans"""
