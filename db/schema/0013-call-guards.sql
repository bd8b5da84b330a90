-- SPDX-License-Identifier: GPL-2.0
-- Constant arguments (analyzer/guards.c).  guard: the values of one of
-- the caller's own parameters the call runs for, as the switch arm it
-- sits in says ("2:1-1,3-5": parameter 2 is 1 or 3..5; "2:!1-1": it is
-- not 1, the default arm).  args: a direct call's constant arguments
-- ("2=1;4=0").  NULL: none, or a file analyzed before this version
-- (`bkl audit --force` redoes it).
ALTER TABLE calls ADD COLUMN guard TEXT;
ALTER TABLE calls ADD COLUMN args TEXT;
