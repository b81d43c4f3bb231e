"""Pure rules engines, one package per game. No Django imports here (tests/engine/test_purity.py)."""
