/** The admin area: one tab per admin screen the user may open, the screen below. One list serves every admin page. */
import { can, type Permission } from '@harbor/shared';
import { Stack, Tabs } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from '../../auth/session';
import { subjectOf } from '../../layout/nav';

export const ADMIN_PAGES: { to: string; label: string; permission: Permission }[] = [
  { to: '/admin/users', label: 'Users', permission: 'admin.manage' },
  { to: '/admin/feature-flags', label: 'Feature flags', permission: 'admin.feature_flags' },
  { to: '/admin/single-sign-on', label: 'Single sign-on', permission: 'admin.sso' },
  { to: '/admin/security-log', label: 'Security log', permission: 'admin.manage' },
  { to: '/admin/signups', label: 'Signups', permission: 'admin.signups' },
  { to: '/admin/office-locations', label: 'Office locations', permission: 'admin.manage' },
  { to: '/admin/statuses', label: 'Statuses', permission: 'lookups.manage' },
  { to: '/admin/agentflow-statuses', label: 'Agent-flow statuses', permission: 'lookups.manage' },
  { to: '/admin/sources', label: 'Sources', permission: 'lookups.manage' },
  { to: '/admin/carriers', label: 'Carriers', permission: 'lookups.manage' },
  { to: '/admin/tags', label: 'Tags', permission: 'lookups.manage' },
  { to: '/admin/groups', label: 'Groups', permission: 'groups.manage' },
  { to: '/admin/pools', label: 'Pools', permission: 'pools.manage' },
  { to: '/admin/plans/sms', label: 'Texting plans', permission: 'plans.admin' },
  { to: '/admin/plans/dialer', label: 'Dialer plans', permission: 'plans.admin' },
  { to: '/admin/email-management', label: 'Email templates', permission: 'admin.manage' },
  { to: '/admin/campaign-triggers', label: 'Campaign triggers', permission: 'admin.manage' },
  { to: '/admin/orders', label: 'Orders', permission: 'orders.manage' },
];

export function AdminLayout() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const pages = ADMIN_PAGES.filter((p) => can(subjectOf(user), p.permission));
  const current = pages.find((p) => pathname.startsWith(p.to))?.to ?? null;
  return (
    <Stack>
      <Tabs value={current} onChange={(v) => v && navigate(v)} aria-label="Admin sections">
        <Tabs.List>
          {pages.map((p) => (
            <Tabs.Tab key={p.to} value={p.to}>
              {p.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </Stack>
  );
}
