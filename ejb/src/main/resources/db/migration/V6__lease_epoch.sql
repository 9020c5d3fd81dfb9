-- Every lease an operation is given carries a number of its own, and every automatic write names
-- the number it holds. Attempt and status alone cannot tell two look-ups of the same unknown attempt
-- apart, nor an expired holder from the one that took over: the epoch can. Taking a lease (a new
-- attempt, a look-up) increments it; renewing one keeps it. New rows start at 1. A constant default
-- makes this a catalog change only: no table scan, no long lock on a large journal. Instances of a
-- release before this one do not increment the epoch: stop them before this release takes over.
ALTER TABLE agent_operation_log ADD COLUMN lease_epoch bigint NOT NULL DEFAULT 1;
