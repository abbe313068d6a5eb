// Creates the feed benchmark database cas_bench_feed on PostgreSQL: the real migrations, then
// 100,000 members, 1,000,000 posts over a year, friendships, groves, reactions, comments and the
// friends-feed inbox, all generated inside PostgreSQL with generate_series (no row-by-row
// inserts). The reader ("bench_reader", member 1) has 500 friends and belongs to 5 groves.
// Triggers are off while loading, so what they keep (the inbox, the counters on posts) is built
// here in one statement each.
//
//   npm run bench:feed -- --load           # (re)create it, then run the benchmark
//   npx tsx bench/feed/load.ts             # only (re)create it
import postgres from 'postgres';
import { openDatabase } from '../../db/client.js';
import { loadPlaces, databaseName as placesDatabase, serverUrl } from '../places/load.js';

export const FEED_DB = 'cas_bench_feed';
export const feedDatabaseUrl = (name = FEED_DB) => `${serverUrl}/${name}`;
export type FeedShape = { [K in keyof typeof SHAPE]: number };
export const SHAPE = {
  members: 100_000,
  posts: 1_000_000,
  readerFriends: 500,
  groves: 5,
  /** Random friendships among everyone else (each is two rows). */
  otherFriendships: 300_000,
  reactions: 500_000,
  comments: 200_000,
} as const;
/** The tiny mode's set (--tiny): the same shape, small; the reader's feed still runs ~1,000 posts deep. */
export const TINY_SHAPE: FeedShape = {
  members: 1_000,
  posts: 20_000,
  readerFriends: 50,
  groves: 5,
  otherFriendships: 2_000,
  reactions: 5_000,
  comments: 2_000,
};
/** Member numbers: 1 is the reader, 2..(1 + readerFriends) its friends. */
export const READER_HANDLE = 'bench_reader';

// A UUIDv7 made in SQL from a millisecond timestamp and random bits (version 7, RFC variant), so
// ids sort by time exactly as db/ids.ts makes them and cursors decode.
const UUID_V7 = `
create function bench_uuid_v7(ms bigint) returns uuid language sql volatile as $$
  select (lpad(to_hex(ms), 12, '0') || '7' || substr(md5(random()::text), 1, 3)
          || substr('89ab', 1 + floor(random() * 4)::int, 1) || substr(md5(random()::text), 1, 15))::uuid
$$`;

// Grove of member i (0 = none): the reader's friends are each in one of the 5 groves, one
// member in 20 of the rest too.
const groveOf = (
  i: string,
  shape: FeedShape,
) => `case when ${i} between 2 and ${1 + shape.readerFriends} then 1 + ${i} % ${shape.groves}
  when ${i} % 20 = 0 then 1 + (${i} / 20) % ${shape.groves} else 0 end`;

/**
 * (Re)creates the feed set in database `name` (and the places yardstick's 10k set if missing,
 * unless `places` is false: a tiny run loads a small one of its own).
 */
export async function loadFeed({ name = FEED_DB, shape = SHAPE as FeedShape, places = true } = {}): Promise<void> {
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  const [placesLoaded] = await admin`select 1 from pg_database where datname = ${placesDatabase('10k')}`;
  await admin.end();
  // The yardstick: the places bench's 10k set, loaded once.
  if (places && !placesLoaded) await loadPlaces('10k');

  const database = await openDatabase({ url: feedDatabaseUrl(name), poolMax: 1 });
  await database.migrate();
  await database.close();

  const sql = postgres(feedDatabaseUrl(name), { max: 1, onnotice: () => {} });
  const timings: string[] = [];
  const step = async (label: string, statement: string) => {
    const started = performance.now();
    await sql.unsafe(statement);
    timings.push(`${label} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  try {
    await sql`set maintenance_work_mem = '512MB'`;
    // Bulk load: no FK checks and no fan-out triggers (the inbox is built in one statement below).
    await sql`set session_replication_role = replica`;
    await sql.unsafe(UUID_V7);
    await sql.unsafe(`create temporary table member_ids (i int primary key, id uuid not null)`);
    const yearMs = 365 * 86_400_000;
    const start = Date.now() - yearMs;
    await step(
      'members',
      `insert into member_ids select i, bench_uuid_v7(${start - 86_400_000}::bigint + i) from generate_series(1, ${shape.members}) i;
       insert into users (id, email, handle, role, created_at)
         select id, 'm' || i || '@bench.test', case when i = 1 then '${READER_HANDLE}' else 'bench_m' || i end, 'member', now() from member_ids`,
    );
    await step(
      'groves',
      `insert into groves (id, slug, name, region_name, join_policy)
         select bench_uuid_v7(${start}::bigint + g), 'bench-grove-' || g, 'Bench grove ' || g, 'Bench', 'open'
         from generate_series(1, ${shape.groves}) g;
       create temporary table grove_ids as select row_number() over (order by id) as g, id from groves;
       insert into grove_members (grove_id, user_id, role)
         select gi.id, m.id, 'member' from member_ids m
           join grove_ids gi on gi.g = (${groveOf('m.i', shape)})
         union all
         select gi.id, m.id, 'member' from grove_ids gi, member_ids m where m.i = 1`,
    );
    await step(
      'friendships',
      `insert into friendships (user_id, friend_id)
         select a.id, b.id from member_ids a, member_ids b where a.i = 1 and b.i between 2 and ${1 + shape.readerFriends}
         union all
         select b.id, a.id from member_ids a, member_ids b where a.i = 1 and b.i between 2 and ${1 + shape.readerFriends};
       insert into friendships (user_id, friend_id)
         select distinct on (x, y) a.id, b.id from (
           select 2 + floor(random() * ${shape.members - 1})::int as x, 2 + floor(random() * ${shape.members - 1})::int as y
           from generate_series(1, ${shape.otherFriendships})) pairs
         join member_ids a on a.i = pairs.x join member_ids b on b.i = pairs.y
         cross join lateral (values (a.id, b.id), (b.id, a.id)) v(u, f)
         where x <> y
         on conflict do nothing`,
    );
    // Reactions and comments are drawn first (post number, member number), so each post is
    // written once with the counters the counter triggers would have kept (they are off here).
    // Post n is the n-th by id: ids are made from each post's time, which grows with n.
    await step(
      'draws',
      `create temporary table reaction_draws as
         select distinct on (pn, mn) pn, mn, kind from (
           select 1 + floor(random() * ${shape.posts})::int as pn, 1 + floor(random() * ${shape.members})::int as mn,
                  (array['heart','support','celebrate','sad'])[1 + floor(random() * 4)::int] as kind
           from generate_series(1, ${shape.reactions})) s;
       create temporary table comment_draws as
         select k, 1 + floor(random() * ${shape.posts})::int as pn, 1 + floor(random() * ${shape.members})::int as mn
         from generate_series(1, ${shape.comments}) k;
       create temporary table post_counts as
         select pn, sum(heart)::int as heart, sum(support)::int as support, sum(celebrate)::int as celebrate,
                sum(sad)::int as sad, sum(comments)::int as comments
         from (select pn, (kind = 'heart')::int as heart, (kind = 'support')::int as support,
                      (kind = 'celebrate')::int as celebrate, (kind = 'sad')::int as sad, 0 as comments from reaction_draws
               union all
               select pn, 0, 0, 0, 0, 1 from comment_draws) d
         group by pn;
       alter table post_counts add primary key (pn)`,
    );
    // Posts spread evenly over a year, authors uniform over all members; half public, 35%
    // friends-only, 15% grove posts (in the author's grove; friends-only when the author has none).
    await step(
      'posts',
      `insert into posts (id, author_id, body, visibility, grove_id, image_keys, created_at,
                          heart_count, support_count, celebrate_count, sad_count, comment_count)
         select bench_uuid_v7(${start}::bigint + (n::bigint * ${Math.floor(yearMs / shape.posts)})), m.id,
                'Post ' || n || ': ' || repeat('vegan ', 1 + n % 20),
                case when r < 0.5 then 'public' when r < 0.85 or gi.id is null then 'friends' else 'grove' end,
                case when r >= 0.85 then gi.id end,
                case when n % 10 = 0 then array['uploads/' || n || '.jpg'] else '{}'::text[] end,
                to_timestamp((${start}::bigint + n::bigint * ${Math.floor(yearMs / shape.posts)}) / 1000.0),
                coalesce(pc.heart, 0), coalesce(pc.support, 0), coalesce(pc.celebrate, 0), coalesce(pc.sad, 0),
                coalesce(pc.comments, 0)
         from (select n, random() as r, 1 + floor(random() * ${shape.members})::int as author
               from generate_series(1, ${shape.posts}) n) s
         join member_ids m on m.i = s.author
         left join grove_ids gi on gi.g = (${groveOf('s.author', shape)})
         left join post_counts pc on pc.pn = s.n`,
    );
    await step(
      'reactions',
      `insert into post_reactions (post_id, user_id, kind)
         select p.id, m.id, d.kind from reaction_draws d
         join (select id, row_number() over (order by id) as pn from posts) p on p.pn = d.pn
         join member_ids m on m.i = d.mn`,
    );
    await step(
      'comments',
      `insert into post_comments (id, post_id, author_id, body, created_at)
         select bench_uuid_v7((extract(epoch from p.created_at) * 1000)::bigint + 1000 + d.k), p.id, m.id, 'Comment ' || d.k, p.created_at
         from comment_draws d
         join (select id, created_at, row_number() over (order by id) as pn from posts) p on p.pn = d.pn
         join member_ids m on m.i = d.mn`,
    );
    // The inbox, as the triggers would have built it: each post for its author and every friend.
    await step(
      'feed inbox',
      `alter table feed_entries drop constraint feed_entries_owner_id_post_id_pk;
       drop index feed_entries_post_id_idx;
       insert into feed_entries (owner_id, post_id)
         select author_id, id from posts
         union all
         select f.user_id, p.id from posts p join friendships f on f.friend_id = p.author_id;
       alter table feed_entries add constraint feed_entries_owner_id_post_id_pk primary key (owner_id, post_id);
       create index feed_entries_post_id_idx on feed_entries (post_id)`,
    );
    await sql`set session_replication_role = origin`;
    // The counters must be what the triggers would keep: checked, not assumed.
    const [wrong] = await sql<{ n: number }[]>`
      select count(*)::int as n from posts p
      left join (select post_id, count(*) filter (where kind = 'heart') as heart, count(*) filter (where kind = 'sad') as sad,
                        count(*) as reactions from post_reactions group by post_id) r on r.post_id = p.id
      left join (select post_id, count(*) as n from post_comments where hidden_at is null group by post_id) c on c.post_id = p.id
      where p.heart_count <> coalesce(r.heart, 0) or p.sad_count <> coalesce(r.sad, 0)
         or p.heart_count + p.support_count + p.celebrate_count + p.sad_count <> coalesce(r.reactions, 0)
         or p.comment_count <> coalesce(c.n, 0)`;
    if (wrong!.n > 0) throw new Error(`${wrong!.n} posts have counters that disagree with their reactions or comments`);
    await step('vacuum analyze', 'vacuum (analyze)');
    const [stats] = await sql<{ members: number; posts: number; inbox: number; size: string }[]>`
      select (select count(*)::int from users) as members, (select count(*)::int from posts) as posts,
             (select count(*)::int from feed_entries) as inbox, pg_size_pretty(pg_database_size(current_database())) as size`;
    console.log(
      `${name}: ${stats!.members} members, ${stats!.posts} posts, ${stats!.inbox} inbox rows, ${stats!.size}; ${timings.join(', ')}`,
    );
  } finally {
    await sql.end();
  }
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) await loadFeed();
