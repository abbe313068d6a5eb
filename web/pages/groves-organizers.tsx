// The organizers' part of a grove's page: join requests, members (with remove and ban, which
// ask first: groves.tsx), bans with their reasons, invite codes and the grove's settings. Only
// the grove's organizers get these lists from the API; nobody else sees them.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { fmt, t } from '../server/i18n.js';
import { rethrowUnless, When } from './events-common.js';
import { type Grove, JoinPolicySelect } from './groves-common.js';
import { urls } from '../urls.js';

export type Invite = RouterOutputs['groves']['createInvite'];

export interface OrganizerData {
  requests: RouterOutputs['groves']['joinRequests'];
  members: RouterOutputs['groves']['members'];
  bans: RouterOutputs['groves']['bans'];
}

export async function organizerData(c: Context<WebEnv>, grove: Grove): Promise<OrganizerData | null> {
  if (grove.myRole !== 'organizer') return null;
  const client = api(c);
  try {
    const [requests, members, bans] = await Promise.all([
      client.groves.joinRequests.query({ id: grove._id, limit: 100 }),
      client.groves.members.query({ id: grove._id, limit: 100 }),
      client.groves.bans.query({ id: grove._id, limit: 100 }),
    ]);
    return { requests, members, bans };
  } catch (caught) {
    rethrowUnless(caught, 403);
    return null;
  }
}

export function OrganizerSections({ grove, data, invite }: { grove: Grove; data: OrganizerData; invite?: Invite }) {
  return (
    <>
      <h2>{t('groves.organizers.requests')}</h2>
      {data.requests.items.length === 0 ? (
        <p>{t('groves.organizers.noRequests')}</p>
      ) : (
        <ul class="plain">
          {data.requests.items.map((request) => (
            <li class="card">
              <p>
                {fmt().rich('groves.organizers.asked', {
                  handle: request.handle,
                  when: <When iso={request.requestedAt} />,
                })}
              </p>
              <form method="post" action={urls.groveRequest(grove.slug, request.handle)} class="actions">
                <button type="submit" name="decision" value="accept">
                  {t('groves.organizers.accept', { handle: request.handle })}
                </button>{' '}
                <button type="submit" name="decision" value="decline" class="secondary">
                  {t('groves.organizers.decline', { handle: request.handle })}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <h2>{t('groves.organizers.members')}</h2>
      <p class="hint">{t('groves.organizers.membersHint')}</p>
      <ul class="plain" aria-label={t('groves.organizers.members')}>
        {data.members.items.map((m) => (
          <li class="card">
            <p>
              {fmt().rich('groves.organizers.memberLine', {
                handle: m.handle,
                role: m.role,
                when: <When iso={m.joinedAt} />,
              })}
            </p>
            {m.role === 'member' ? (
              <form method="post" action={urls.groveMember(grove.slug, m.handle)} class="actions">
                <button type="submit" name="decision" value="remove" class="secondary">
                  {t('groves.organizers.remove', { handle: m.handle })}
                </button>
                <button type="submit" name="decision" value="ban" class="danger">
                  {t('groves.organizers.ban', { handle: m.handle })}
                </button>
              </form>
            ) : null}
          </li>
        ))}
      </ul>
      {data.bans.items.length > 0 ? (
        <>
          <h2>{t('groves.organizers.banned')}</h2>
          <ul class="plain">
            {data.bans.items.map((ban) => (
              <li>
                <form method="post" action={urls.groveBan(grove.slug, ban.handle)}>
                  {fmt().rich('groves.organizers.bannedLine', {
                    handle: ban.handle,
                    when: <When iso={ban.bannedAt} />,
                  })}
                  {ban.reason ? (
                    <span class="pre-line"> · {t('groves.organizers.banReason', { reason: ban.reason })}</span>
                  ) : null}{' '}
                  <button type="submit" class="secondary">
                    {t('groves.organizers.lift', { handle: ban.handle })}
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>{t('groves.organizers.invites')}</h2>
      {invite ? (
        <div class="notice" role="status">
          <label for="new-invite">{t('groves.organizers.newInvite')}</label>
          <input id="new-invite" type="text" readonly value={invite.code} />
          <p>
            {fmt().rich('groves.organizers.inviteFor', {
              count: invite.maxUses,
              when: <When iso={invite.expiresAt} />,
            })}
          </p>
        </div>
      ) : null}
      <form
        method="post"
        action={urls.groveInvites(grove.slug)}
        class="stack"
        aria-label={t('groves.organizers.inviteForm')}
      >
        <div>
          <label for="invite-uses">{t('groves.organizers.inviteUses')}</label>
          <input id="invite-uses" name="maxUses" type="number" min={1} max={100} value="1" />
        </div>
        <div>
          <label for="invite-hours">{t('groves.organizers.inviteHours')}</label>
          <input id="invite-hours" name="expiresInHours" type="number" min={1} max={720} value="168" />
        </div>
        <p>
          <button type="submit">{t('groves.organizers.makeInvite')}</button>
        </p>
      </form>
      <h2>{t('groves.organizers.settings')}</h2>
      <form
        method="post"
        action={urls.groveSettings(grove.slug)}
        class="stack"
        aria-label={t('groves.organizers.settings')}
      >
        <div>
          <label for="grove-name">{t('groves.organizers.name')}</label>
          <input id="grove-name" name="name" type="text" required maxlength={120} value={grove.name} />
        </div>
        <div>
          <label for="grove-description">{t('groves.organizers.description')}</label>
          <textarea id="grove-description" name="description" maxlength={5000}>
            {grove.description}
          </textarea>
        </div>
        <JoinPolicySelect id="grove-policy" value={grove.joinPolicy} />
        <p>
          <button type="submit">{t('groves.organizers.saveSettings')}</button>
        </p>
      </form>
    </>
  );
}
