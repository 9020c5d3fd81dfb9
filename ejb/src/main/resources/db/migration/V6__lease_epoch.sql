-- Every lease an operation is given carries a number of its own, and every automatic write names
-- the number it holds. Attempt and status alone cannot tell two look-ups of the same unknown attempt
-- apart, nor an expired holder from the one that took over: the epoch can. Taking a lease (a new
-- attempt, a look-up) increments it; renewing one keeps it. New rows start at 1.
ALTER TABLE agent_operation_log ADD COLUMN lease_epoch bigint NOT NULL DEFAULT 1 CHECK (lease_epoch >= 1);
