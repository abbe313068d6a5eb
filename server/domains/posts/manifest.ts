// What the posts domain contributes: posts, the feed, handles, saved posts (under `me`), and
// posts and comments as report targets.
import { router } from '../../trpc/init.js';
import { defineManifest } from '../manifest.js';
import { commentReportTarget, postReportTarget } from './report-targets.js';
import { feedRouter, handlesRouter, postsRouter, savedPostsProcedures } from './router.js';

export const postsManifest = defineManifest({
  domain: 'posts',
  namespaces: { posts: postsRouter, feed: feedRouter, handles: handlesRouter },
  addsTo: { me: router(savedPostsProcedures) },
  reportTargets: [postReportTarget, commentReportTarget],
});
