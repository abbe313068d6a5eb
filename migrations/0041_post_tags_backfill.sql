-- Fills post_tags for the posts written before it existed, with the rule of
-- server/domains/posts/tags.ts as near as PostgreSQL's regular expressions allow: [[:alnum:]] follows
-- the database's character classification (letters of every script on a UTF-8 locale; combining
-- marks end a tag here). New posts get their tags from the JavaScript rule exactly.
INSERT INTO "post_tags" ("tag", "post_id")
SELECT DISTINCT lower(normalize(m[1], NFC)), p."id"
FROM "posts" p, regexp_matches(p."body", '(?<![[:alnum:]_&#/])#([[:alnum:]_]+)', 'g') AS m
WHERE char_length(m[1]) <= 64 AND m[1] !~ '^[0-9]+$'
ON CONFLICT DO NOTHING;
