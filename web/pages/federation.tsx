// The "Fediverse" section of a grove's page (for its organizers) and of an organization's page
// (for its admins and site admins): whether it federates and its handle, the switch (a form
// POST: default, on or off), and its remote followers with a remove button. The API decides who
// gets this (docs/federation.md); anybody else's page just has no such section.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { t } from '../server/i18n.js';
import { formFields, notFoundPage, rethrowUnless, When } from './events-common.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Kind = 'grove' | 'organization';
export type FederationSettings = RouterOutputs['groves']['federation'];

export interface FederationData {
  settings: FederationSettings;
  followers: RouterOutputs['groves']['federationFollowers'];
}

/** The section's data, or null for a viewer who may not manage the host (signed out, 403). */
export async function federationData(c: Context<WebEnv>, kind: Kind, id: string): Promise<FederationData | null> {
  if (!(await currentMember(c))) return null;
  try {
    const [settings, followers] = await Promise.all(
      kind === 'grove'
        ? [api(c).groves.federation.query({ id }), api(c).groves.federationFollowers.query({ id, limit: 100 })]
        : [
            api(c).organizations.federation.query({ id }),
            api(c).organizations.federationFollowers.query({ id, limit: 100 }),
          ],
    );
    return { settings, followers };
  } catch (caught) {
    rethrowUnless(caught, 403);
    return null;
  }
}

const paths = {
  grove: { switch: urls.groveFederation, follower: urls.groveFollower },
  organization: { switch: urls.organizationFederation, follower: urls.organizationFollower },
};

function stateLine(settings: FederationSettings): string {
  if (!settings.serverFederates) return t('federation.state.serverOff');
  if (!settings.allowed) return t('federation.state.inviteOnly');
  return settings.federates ? t('federation.state.on') : t('federation.state.off');
}

export function FederationSection({ kind, slug, data }: { kind: Kind; slug: string; data: FederationData }) {
  const { settings, followers } = data;
  const choice = settings.enabled === null ? 'default' : settings.enabled ? 'on' : 'off';
  return (
    <section aria-labelledby="fediverse">
      <h2 id="fediverse">{t('federation.title')}</h2>
      <p class="hint">{t('federation.intro')}</p>
      <p>{stateLine(settings)}</p>
      {settings.handle ? (
        <p>
          {t('federation.handle')} <code>{settings.handle}</code>
        </p>
      ) : null}
      {settings.serverFederates && settings.allowed ? (
        <form method="post" action={paths[kind].switch(slug)} class="stack">
          <fieldset>
            <legend>{t('federation.switch.legend')}</legend>
            {(['default', 'on', 'off'] as const).map((value) => (
              <div>
                <input
                  type="radio"
                  id={`federation-${value}`}
                  name="enabled"
                  value={value}
                  checked={choice === value}
                />{' '}
                <label for={`federation-${value}`}>
                  {value === 'default'
                    ? t('federation.switch.default', { on: settings.default ? 'yes' : 'no' })
                    : value === 'on'
                      ? t('federation.switch.on')
                      : t('federation.switch.off')}
                </label>
              </div>
            ))}
          </fieldset>
          <p class="hint">{t('federation.switch.offHint')}</p>
          <p>
            <button type="submit">{t('federation.switch.save')}</button>
          </p>
        </form>
      ) : null}
      <h3>{t('federation.followers.title', { count: settings.followersCount })}</h3>
      {followers.items.length === 0 ? (
        <p>{t('federation.followers.none')}</p>
      ) : (
        <ul class="plain" aria-label={t('federation.followers.listLabel')}>
          {followers.items.map((follower) => (
            <li>
              <form method="post" action={paths[kind].follower(slug, follower._id)}>
                <code>{follower.actor}</code> · <When iso={follower.followedAt} />{' '}
                <button type="submit" class="secondary">
                  {t('federation.followers.remove', { actor: follower.actor })}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The host a POST names, by slug (null: none the viewer can see). */
async function loadHost(c: Context<WebEnv>, kind: Kind): Promise<{ _id: string; slug: string } | null> {
  const slug = pathParam(c, 'slug');
  try {
    return kind === 'grove'
      ? await api(c).groves.get.query({ grove: slug })
      : await api(c).organizations.get.query({ slug });
  } catch (caught) {
    rethrowUnless(caught, 404, 400);
    return null;
  }
}

function hostAction(
  kind: Kind,
  run: (c: Context<WebEnv>, id: string, fields: Record<string, string>) => Promise<string>,
) {
  return async (c: Context<WebEnv>) => {
    const host = await loadHost(c, kind);
    if (!host) return notFoundPage(c);
    const back = kind === 'grove' ? urls.grove(host.slug) : urls.organization(host.slug);
    const fields = await formFields(c);
    try {
      return redirectWithNotice(c, back, await run(c, host._id, fields));
    } catch (caught) {
      rethrowUnless(caught, 400, 403, 404, 409, 501);
      return redirectWithNotice(c, back, apiErrorMessage(caught));
    }
  };
}

const enabledOf = (value: string | undefined) => (value === 'on' ? true : value === 'off' ? false : null);

function switchPage(kind: Kind): Page {
  return hostAction(kind, async (c, id, fields) => {
    const input = { id, enabled: enabledOf(fields.enabled) };
    const settings = await (kind === 'grove'
      ? api(c).groves.setFederation.mutate(input)
      : api(c).organizations.setFederation.mutate(input));
    return settings.federates ? t('federation.switch.savedOn') : t('federation.switch.savedOff');
  });
}

function removePage(kind: Kind): Page {
  return hostAction(kind, async (c, id) => {
    const input = { id, followerId: pathParam(c, 'followerId') };
    await (kind === 'grove'
      ? api(c).groves.removeFederationFollower.mutate(input)
      : api(c).organizations.removeFederationFollower.mutate(input));
    return t('federation.followers.removed');
  });
}

export const setGroveFederation = switchPage('grove');
export const removeGroveFollower = removePage('grove');
export const setOrganizationFederation = switchPage('organization');
export const removeOrganizationFollower = removePage('organization');
