-- The friends-feed inbox (feed_entries) kept by the database itself, so every writer of posts or
-- friendships (the posts and friends domains, factories, scripts) keeps it right. The feed query
-- re-checks friendship and visibility on every read: these rows only narrow the candidates.
-- Design and measurements: bench/README.md, "Friends feed".

-- A new post goes into its author's inbox and into the inbox of each current friend.
CREATE FUNCTION feed_fan_out_post() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO feed_entries (owner_id, post_id)
    SELECT NEW.author_id, NEW.id
    UNION ALL
    SELECT f.user_id, NEW.id FROM friendships f WHERE f.friend_id = NEW.author_id
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER posts_feed_fan_out AFTER INSERT ON posts FOR EACH ROW EXECUTE FUNCTION feed_fan_out_post();
--> statement-breakpoint
-- A new friendship row (user → friend) brings the friend's earlier posts into the user's inbox.
-- Friendships are two rows, one per direction, so each side gets the other's posts.
CREATE FUNCTION feed_backfill_friendship() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO feed_entries (owner_id, post_id)
    SELECT NEW.user_id, p.id FROM posts p WHERE p.author_id = NEW.friend_id
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER friendships_feed_backfill AFTER INSERT ON friendships FOR EACH ROW EXECUTE FUNCTION feed_backfill_friendship();
--> statement-breakpoint
-- An ended friendship takes the former friend's posts out of the user's inbox (the feed query
-- already hides them from the next request on; this keeps the inbox from growing stale).
CREATE FUNCTION feed_prune_friendship() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM feed_entries fe USING posts p
    WHERE fe.owner_id = OLD.user_id AND fe.post_id = p.id AND p.author_id = OLD.friend_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER friendships_feed_prune AFTER DELETE ON friendships FOR EACH ROW EXECUTE FUNCTION feed_prune_friendship();
