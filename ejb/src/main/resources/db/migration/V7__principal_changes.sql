-- Every change to a principal (rotation, revocation, an edit by hand in SQL) is announced on the
-- channel toolgate_principal with the principal's id. Each instance listens and drops that principal
-- from its cache of authenticated callers, so a revoked or rotated token stops working everywhere
-- within moments, not at the end of a cache lifetime. NOTIFY is delivered when the transaction
-- commits, and not at all when it rolls back. Instances of an earlier release do not cache, so they
-- need no announcement.
CREATE FUNCTION principal_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('toolgate_principal', OLD.principal_id);
    RETURN NULL;
END
$$;

CREATE TRIGGER principal_changed AFTER UPDATE OR DELETE ON principal
    FOR EACH ROW EXECUTE FUNCTION principal_changed();

-- TRUNCATE fires no row trigger: it is announced as a change to everyone ('*', no principal's id).
CREATE FUNCTION principals_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('toolgate_principal', '*');
    RETURN NULL;
END
$$;

CREATE TRIGGER principals_truncated AFTER TRUNCATE ON principal
    FOR EACH STATEMENT EXECUTE FUNCTION principals_truncated();
