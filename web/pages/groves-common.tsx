// What every grove page shares: the grove's type, its join policy's labels and picker, its path.
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { urls } from '../urls.js';

export type Grove = RouterOutputs['groves']['get'];
export type JoinPolicy = Grove['joinPolicy'];

export const joinPolicyLabels: Record<JoinPolicy, string> = {
  open: 'Open: anyone can join',
  approval: 'Approval: organizers accept each request',
  invite: 'Invite only: join with a code from an organizer',
};

export function grovePath(grove: Pick<Grove, 'slug'>): string {
  return urls.grove(grove.slug);
}

export function JoinPolicySelect({ id, value }: { id: string; value: JoinPolicy }) {
  return (
    <div>
      <label for={id}>Who can join</label>
      <select id={id} name="joinPolicy">
        {(Object.keys(joinPolicyLabels) as JoinPolicy[]).map((policy) => (
          <option value={policy} selected={policy === value}>
            {joinPolicyLabels[policy]}
          </option>
        ))}
      </select>
    </div>
  );
}
