-- The reaction and comment counters of `posts` (migration post_counters), kept exact by the
-- database in the transaction of every write of post_reactions and post_comments: the posts
-- domain, moderation hiding a comment (reports), cascades from a deleted post or a deleted
-- account, tests and scripts all go through these triggers, so no writer can forget them.
-- Every post view reads the counters instead of counting per row (bench/README.md, "Friends feed").
--
-- Exact under concurrency: each change is `UPDATE posts SET n = n + delta` on the post's row,
-- which takes the row lock and re-reads the newest committed counter (READ COMMITTED), so
-- concurrent reactions on one post serialize on that row and none is lost. The reaction or
-- comment write and its counter update commit or roll back together. A post deleted with its
-- reactions and comments (cascade) is no longer visible to these updates: they touch no row.

-- Adds `delta` to the counter of reaction `kind` on post `post`.
CREATE FUNCTION post_reaction_count_add(post uuid, kind text, delta int) RETURNS void LANGUAGE sql AS $$
  UPDATE posts SET
    heart_count = heart_count + CASE WHEN kind = 'heart' THEN delta ELSE 0 END,
    support_count = support_count + CASE WHEN kind = 'support' THEN delta ELSE 0 END,
    celebrate_count = celebrate_count + CASE WHEN kind = 'celebrate' THEN delta ELSE 0 END,
    sad_count = sad_count + CASE WHEN kind = 'sad' THEN delta ELSE 0 END
  WHERE id = post
$$;
--> statement-breakpoint
CREATE FUNCTION post_reactions_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.post_id = NEW.post_id THEN
    -- A changed kind (the upsert of POST /api/posts/{id}/reactions): one row update, not two.
    UPDATE posts SET
      heart_count = heart_count - (OLD.kind = 'heart')::int + (NEW.kind = 'heart')::int,
      support_count = support_count - (OLD.kind = 'support')::int + (NEW.kind = 'support')::int,
      celebrate_count = celebrate_count - (OLD.kind = 'celebrate')::int + (NEW.kind = 'celebrate')::int,
      sad_count = sad_count - (OLD.kind = 'sad')::int + (NEW.kind = 'sad')::int
    WHERE id = NEW.post_id;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM post_reaction_count_add(OLD.post_id, OLD.kind, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM post_reaction_count_add(NEW.post_id, NEW.kind, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER post_reactions_count_insert_delete AFTER INSERT OR DELETE ON post_reactions
  FOR EACH ROW EXECUTE FUNCTION post_reactions_count();
--> statement-breakpoint
-- Setting the same kind again (the idempotent upsert) changes no counter and updates no post.
CREATE TRIGGER post_reactions_count_update AFTER UPDATE OF post_id, kind ON post_reactions
  FOR EACH ROW WHEN (OLD.post_id IS DISTINCT FROM NEW.post_id OR OLD.kind IS DISTINCT FROM NEW.kind)
  EXECUTE FUNCTION post_reactions_count();
--> statement-breakpoint
-- comment_count counts the comments that are not hidden: hiding one (moderation) takes it out.
CREATE FUNCTION post_comments_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.hidden_at IS NULL THEN
    UPDATE posts SET comment_count = comment_count - 1 WHERE id = OLD.post_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.hidden_at IS NULL THEN
    UPDATE posts SET comment_count = comment_count + 1 WHERE id = NEW.post_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER post_comments_count_insert_delete AFTER INSERT OR DELETE ON post_comments
  FOR EACH ROW EXECUTE FUNCTION post_comments_count();
--> statement-breakpoint
CREATE TRIGGER post_comments_count_update AFTER UPDATE OF post_id, hidden_at ON post_comments
  FOR EACH ROW WHEN (OLD.post_id IS DISTINCT FROM NEW.post_id OR (OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL))
  EXECUTE FUNCTION post_comments_count();
--> statement-breakpoint
-- The counters of the posts that exist now (the triggers above hold writers off until this
-- migration commits, so nothing is counted twice or missed).
UPDATE posts p SET
  heart_count = coalesce(r.heart, 0), support_count = coalesce(r.support, 0),
  celebrate_count = coalesce(r.celebrate, 0), sad_count = coalesce(r.sad, 0)
FROM (SELECT post_id,
        count(*) FILTER (WHERE kind = 'heart')::int AS heart,
        count(*) FILTER (WHERE kind = 'support')::int AS support,
        count(*) FILTER (WHERE kind = 'celebrate')::int AS celebrate,
        count(*) FILTER (WHERE kind = 'sad')::int AS sad
      FROM post_reactions GROUP BY post_id) r
WHERE r.post_id = p.id;
--> statement-breakpoint
UPDATE posts p SET comment_count = c.n
FROM (SELECT post_id, count(*)::int AS n FROM post_comments WHERE hidden_at IS NULL GROUP BY post_id) c
WHERE c.post_id = p.id;
