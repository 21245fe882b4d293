"""A bundle carries each view's text exactly as the table made it, whatever it holds."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shared import messages as m

texts = st.text(min_size=0, max_size=40)  # any text: names with accents, quotes, newlines
outcomes = st.none() | st.builds(
    m.Outcome, request_id=texts, player_id=st.none() | texts, ok=st.booleans(), code=texts
)
updates = st.builds(
    m.TableUpdate,
    table_id=texts,
    seq=st.integers(0, 10**6),
    views=st.dictionaries(texts, texts, max_size=6),
    spectator=texts,
    outcome=outcomes,
    snapshot_for=st.none() | texts,
)
refusals = st.builds(
    m.Refusal,
    table_id=texts,
    outcome=st.builds(m.Outcome, request_id=texts, player_id=texts, ok=st.just(False)),
)


@given(st.lists(updates | refusals, max_size=8))
def test_what_is_packed_unpacks_the_same(sent: list[m.TableUpdate | m.Refusal]) -> None:
    body = m.pack(sent)
    assert body.startswith(m.BUNDLE_START)
    assert m.unpack(body) == sent
