// What the blocks domain contributes: blocks and mutes under /api/me. Their rows go with either
// account by ON DELETE CASCADE (db/schema/blocks.ts), so no account-deletion cleaner is needed.
import { defineManifest } from '../manifest.js';
import { router } from '../../trpc/init.js';
import { blocksMeProcedures } from './router.js';

export const blocksManifest = defineManifest({
  domain: 'blocks',
  addsTo: { me: router(blocksMeProcedures) },
});
