// What every grove page shares: the grove's type, its join policy's labels and picker, its path.
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { t } from '../server/i18n.js';
import { urls } from '../urls.js';

export type Grove = RouterOutputs['groves']['get'];
export type JoinPolicy = Grove['joinPolicy'];

/** Catalog keys of the join policies (translated where shown). */
export const joinPolicyKeys: Record<JoinPolicy, string> = {
  open: 'groves.joinPolicy.open',
  approval: 'groves.joinPolicy.approval',
  invite: 'groves.joinPolicy.invite',
};

export function joinPolicyLabel(policy: JoinPolicy): string {
  return t(joinPolicyKeys[policy]);
}

export function grovePath(grove: Pick<Grove, 'slug'>): string {
  return urls.grove(grove.slug);
}

export function JoinPolicySelect({ id, value }: { id: string; value: JoinPolicy }) {
  return (
    <div>
      <label for={id}>{t('groves.joinPolicy.label')}</label>
      <select id={id} name="joinPolicy">
        {(Object.keys(joinPolicyKeys) as JoinPolicy[]).map((policy) => (
          <option value={policy} selected={policy === value}>
            {joinPolicyLabel(policy)}
          </option>
        ))}
      </select>
    </div>
  );
}
