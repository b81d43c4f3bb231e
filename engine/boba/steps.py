"""The step words of the Play effect vocabulary: one registered entry per step kind.

Each handler is registered with :func:`~engine.boba.vocabulary.step_word`, next to its
documentation and its checkers (the main value's, and one per extra field it accepts): adding
a step kind is writing its entry in the module of its family (:mod:`~engine.boba.steps_power`,
:mod:`~engine.boba.steps_cards`, :mod:`~engine.boba.steps_flow`). :mod:`engine.boba.effects`
validates steps with these entries and :class:`~engine.boba.resolve.Resolver` runs them (each
step parsed once, see :func:`~engine.boba.vocabulary.parsed_steps`). A handler returns whether
the step was done in full, for ``required`` steps (CR 5.2.3 A); ``r`` is the resolver the play
resolves in.
"""

# The families register their step words in this order, the order of the registry (and of the
# step kinds an error message lists): power and hot dogs, cards and dice, then flow.
from . import steps_power as steps_power  # noqa: I001
from . import steps_cards as steps_cards
from . import steps_flow as steps_flow
