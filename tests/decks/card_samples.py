"""Card list samples for the catalog import tests."""

from __future__ import annotations

CSV = (
    "name,set,card_number,weapon,power,parallel\n"
    "Test Hero,Test Set,1,Fire,120,Paper\n"
    "Test Hero,Test Set,2,Ice,125,Paper\n"
    "Broken Hero,Test Set,3,Laser,130,Paper\n"
)
