-- Issue 15: several processes share one database. A public post in flight is claimed by one process for a
-- lease (bot/storage/claims.py): claimed_at is when, claimed_by which shard set ('0-1/4'). Another process
-- may take the post over only once the lease has run out, so a process that dies holding a claim blocks
-- nothing for longer than the lease; the same shard set, restarted, takes its own claims back at once.
ALTER TABLE announcements ADD COLUMN claimed_by TEXT;
