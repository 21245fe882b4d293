-- One accepted command in one round trip: the lease check, the event, the lobby summary and
-- whatever else the command changed, in the single transaction of one function call.
-- The posting body comes without its number; the table numbers it here. Names are qualified:
-- a function resolves them with its caller's search_path.

CREATE FUNCTION tables.append(
    p_table text, p_shard integer, p_owner text, p_epoch bigint,
    p_seq bigint, p_action text, p_events jsonb,
    p_phase text, p_seats jsonb, p_deadline bigint,
    p_snapshot jsonb, p_posting jsonb,
    p_claim_players text[], p_claim_seats integer[], p_releases text[]
) RETURNS TABLE (outbox_id bigint, body jsonb)
LANGUAGE plpgsql AS $$
DECLARE
    numbered bigint;
BEGIN
    PERFORM 1 FROM tables.leases
        WHERE shard = p_shard AND owner = p_owner AND epoch = p_epoch FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'shard % is no longer ours', p_shard USING ERRCODE = 'SWFEN';
    END IF;
    INSERT INTO tables.events (table_id, seq, action_id, events)
        VALUES (p_table, p_seq, p_action, p_events);
    UPDATE tables.tables SET seq = p_seq, phase = p_phase, seats = p_seats, deadline = p_deadline,
        updated_at = now()
        WHERE table_id = p_table;
    IF p_snapshot IS NOT NULL THEN
        INSERT INTO tables.snapshots (table_id, seq, state) VALUES (p_table, p_seq, p_snapshot);
    END IF;
    IF cardinality(p_releases) > 0 THEN
        DELETE FROM tables.seatings WHERE table_id = p_table AND player_id = ANY (p_releases);
    END IF;
    IF cardinality(p_claim_players) > 0 THEN
        INSERT INTO tables.seatings (player_id, table_id, seat)
            SELECT claim.player_id, p_table, claim.seat
            FROM unnest(p_claim_players, p_claim_seats) AS claim (player_id, seat);
    END IF;
    IF p_posting IS NOT NULL THEN
        UPDATE tables.tables SET postings = postings + 1 WHERE table_id = p_table
            RETURNING postings INTO numbered;
        body := p_posting || jsonb_build_object('posting_no', numbered);
        INSERT INTO tables.outbox (table_id, shard, body) VALUES (p_table, p_shard, body)
            RETURNING id INTO outbox_id;
    END IF;
    IF cardinality(p_releases) > 0 THEN
        -- After this command's posting is numbered: a player leaving in the command that
        -- settled their last hand must wait for that posting to be applied.
        INSERT INTO tables.departures (player_id, table_id, posting_no)
            SELECT released, p_table, t.postings
            FROM unnest(p_releases) AS released, tables.tables t WHERE t.table_id = p_table
            ON CONFLICT (player_id) DO UPDATE
            SET table_id = excluded.table_id, posting_no = excluded.posting_no;
    END IF;
    RETURN NEXT;
END
$$;
