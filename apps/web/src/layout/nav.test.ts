import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/fixtures';
import { activeNavItem, NAV_ITEMS, type NavItem, subjectOf, visibleNavItems } from './nav';

/** As if every feature had shipped, so permissions alone decide. */
const allReady: NavItem[] = NAV_ITEMS.map((i) => ({ ...i, ready: true }));
const labels = (items: NavItem[]) => items.map((i) => i.label);

const agent = makeUser({ roles: ['agent'] });
const admin = makeUser({ roles: ['sub_admin', 'admin'], admin: true });
const basic = makeUser({ roles: ['basic'], basic: true });
/** Texting needs the SMS gate: an active premium Max Plus (spec §6). */
const texter = makeUser({ roles: ['agent'], max_plus_subscription: { active: true, plan: 'premium' } });

describe('visibleNavItems', () => {
  it('shows only ready entries: an agent does not get Admin, an admin does', () => {
    expect(labels(visibleNavItems(subjectOf(agent)))).toEqual([
      'Dashboard',
      'Contacts',
      'Calendar',
      'Imports',
      'Plans',
      'Wallet',
      'Max Plus',
      'Store',
      'SOA requests',
      'Profile',
    ]);
    expect(labels(visibleNavItems(subjectOf(admin)))).toEqual([
      'Dashboard',
      'Contacts',
      'Calendar',
      'Imports',
      'Plans',
      'Wallet',
      'Max Plus',
      'Store',
      'SOA requests',
      'Team',
      'Admin',
      'Profile',
    ]);
  });

  it('gives an agent the working areas but not Team or Admin', () => {
    const shown = labels(visibleNavItems(subjectOf(texter), allReady));
    expect(shown).toEqual(
      expect.arrayContaining(['Dashboard', 'Contacts', 'Imports', 'SMS', 'Dialer', 'Reports', 'Follow-ups', 'Profile']),
    );
    expect(shown).not.toContain('Team');
    expect(shown).not.toContain('Admin');
    // training_app is off by default
    expect(shown).not.toContain('Trainings');
  });

  it('gives an admin Team and Admin', () => {
    const shown = labels(visibleNavItems(subjectOf(admin), allReady));
    expect(shown).toContain('Team');
    expect(shown).toContain('Admin');
  });

  it('offers Max Plus and the store to everyone signed in, basic users too (both are paid by card)', () => {
    for (const user of [agent, admin, basic]) {
      expect(labels(visibleNavItems(subjectOf(user)))).toEqual(expect.arrayContaining(['Max Plus', 'Store']));
    }
  });

  it('takes reports, follow-ups, SMS and workflows away from a basic user', () => {
    const shown = labels(visibleNavItems(subjectOf(basic), allReady));
    for (const gone of ['Reports', 'Follow-ups', 'SMS', 'Workflows', 'Imports', 'Team', 'Admin']) {
      expect(shown).not.toContain(gone);
    }
    expect(shown).toEqual(expect.arrayContaining(['Dashboard', 'Contacts', 'Dialer', 'Profile']));
  });

  it('removes SMS when the sms_campaigns flag is off or the SMS gate is closed, even when ready', () => {
    const off = makeUser({ ...texter, features: { ...texter.features, sms_campaigns: false } });
    expect(labels(visibleNavItems(subjectOf(texter)))).toContain('SMS');
    expect(labels(visibleNavItems(subjectOf(agent), allReady))).not.toContain('SMS');
    expect(labels(visibleNavItems(subjectOf(off), allReady))).not.toContain('SMS');
  });

  it('shows Plans while texting or the dialer is open, not when both are closed', () => {
    expect(labels(visibleNavItems(subjectOf(basic)))).toContain('Plans');
    const none = makeUser({ features: { ...agent.features, sms_campaigns: false, dialer: false } });
    expect(labels(visibleNavItems(subjectOf(none)))).not.toContain('Plans');
  });

  it('honors an entry that requires a feature directly', () => {
    const items: NavItem[] = [{ label: 'Products', to: '/products', icon: 'admin', feature: 'products', ready: true }];
    expect(visibleNavItems(subjectOf(agent), items)).toEqual([]);
    const on = makeUser({ features: { ...agent.features, products: true } });
    expect(labels(visibleNavItems(subjectOf(on), items))).toEqual(['Products']);
  });
});

describe('activeNavItem', () => {
  it('prefers the longest match', () => {
    expect(activeNavItem('/contacts/imports/3', allReady)?.label).toBe('Imports');
    expect(activeNavItem('/contacts/12', allReady)?.label).toBe('Contacts');
    expect(activeNavItem('/', allReady)?.label).toBe('Dashboard');
    expect(activeNavItem('/nowhere', allReady)).toBeUndefined();
  });
});
