// The `signInAlert` kind of the push outbox (server/push/outbox.ts): one row per alert, for its
// account alone, subject = the alert's "not me" link row. Sent when the link is still unused and
// the member registered a browser for pushes. Not behind a notification preference: it is a
// security notice, like the mail, and reaches only browsers the member registered themselves.
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import type { OutboxRow, PushKind } from '../../push/outbox.js';
import { signInAlertPush } from './alert-texts.js';
import { familyOfKey } from './device.js';

interface Due {
  row_id: number | string;
  user_id: string;
  family: string;
  created_at: Date | string;
}

export function signInAlertPushKind(deps: { database: Database }): PushKind {
  return {
    kind: 'signInAlert',
    async resolve(tx, rows: OutboxRow[]) {
      const values = sql.join(
        rows.map((row) => sql`(${row.id}::bigint, ${row.recipient_id}::uuid, ${row.subject_id}::uuid)`),
        sql`, `,
      );
      const due = await deps.database.rows<Due>(
        sql`
          select q.row_id, q.user_id, a.family, a.created_at
          from (values ${values}) as q(row_id, user_id, alert_id)
          join sign_in_alert_tokens a on a.id = q.alert_id and a.user_id = q.user_id
          where exists (select 1 from push_subscriptions s where s.user_id = q.user_id and s.platform = 'web')`,
        tx,
      );
      return due.map((entry) => ({
        rowId: Number(entry.row_id),
        userId: entry.user_id,
        message: signInAlertPush(familyOfKey(entry.family), new Date(entry.created_at)),
      }));
    },
  };
}
