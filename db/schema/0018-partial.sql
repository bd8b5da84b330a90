-- SPDX-License-Identifier: GPL-2.0
-- Files analyzed in part.  sparse drops code it cannot type: an operand
-- of a comparison of pointers in different address spaces (an error the
-- analyzer lives with) takes its whole expression with it, and with it
-- an if statement and its branches; a few warnings ("unknown
-- expression", ...) drop what they name.  Such a file is analyzed
-- (status 'ok') but its facts are not complete: partial is the first
-- such message (NULL: nothing was dropped that sparse said).  The
-- functions the dropped code was in have functions.partial = 1, and
-- their imbalances are not claimed complete (bkl imbalance says so).
ALTER TABLE files ADD COLUMN partial TEXT;
ALTER TABLE functions ADD COLUMN partial INTEGER NOT NULL DEFAULT 0;
