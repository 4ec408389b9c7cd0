import { can, roleLabel } from '@harbor/shared';
import { Stack, Table, Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';
import { subjectOf } from '../../layout/nav';
import { FavoritesTab, ProfileDetailsForm, SignInsTab, WebpageTab } from './AccountExtrasTabs';
import { ApiKeysTab } from './ApiKeysTab';
import { PasswordTab } from './PasswordTab';
import { PreferencesTab } from './PreferencesTab';
import { ProfilePictures } from './ProfilePictures';
import { TwoFactorTab } from './TwoFactorTab';

export const PROFILE_TABS = [
  { value: 'profile', label: 'Profile' },
  { value: 'password', label: 'Password' },
  { value: 'two_factor', label: 'Two-factor' },
  { value: 'preferences', label: 'Preferences' },
  { value: 'webpage', label: 'Webpage' },
  { value: 'api_keys', label: 'API keys' },
  { value: 'favorites', label: 'Favorites' },
  { value: 'sign_ins', label: 'Sign-ins & offices' },
] as const;
type TabValue = (typeof PROFILE_TABS)[number]['value'];

function ProfileTab() {
  const user = useCurrentUser();
  const rows: [string, string][] = [
    ['First name', user.profile.first_name],
    ['Last name', user.profile.last_name],
    ['Username', user.username],
    ['Email', user.email],
    ['Role', roleLabel(user.profile.account_type, user.company.variant)],
    ['Company', user.company.name],
  ];
  if (user.business_unit) rows.push(['Business unit', user.business_unit.name]);
  return (
    <Table variant="vertical" withTableBorder maw={560} aria-label="Your profile">
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th w={160}>{k}</Table.Th>
            <Table.Td>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ProfileTabWithForm() {
  return (
    <Stack>
      <ProfileTab />
      <ProfilePictures />
      <ProfileDetailsForm />
    </Stack>
  );
}

export function ProfilePage() {
  const user = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = PROFILE_TABS.some((t) => t.value === requested) ? (requested as TabValue) : 'profile';
  return (
    <Stack gap="md">
      <PageHeading title="Your account" />
      <Tabs value={tab} onChange={(value) => value && setParams({ tab: value })} keepMounted={false}>
        <Tabs.List>
          {PROFILE_TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="profile" pt="md">
          <ProfileTabWithForm />
        </Tabs.Panel>
        <Tabs.Panel value="password" pt="md">
          <PasswordTab />
        </Tabs.Panel>
        <Tabs.Panel value="two_factor" pt="md">
          <TwoFactorTab />
        </Tabs.Panel>
        <Tabs.Panel value="preferences" pt="md">
          <PreferencesTab />
        </Tabs.Panel>
        <Tabs.Panel value="webpage" pt="md">
          {can(subjectOf(user), 'marketing_profile.use') ? <WebpageTab /> : 'Your account has no public webpage.'}
        </Tabs.Panel>
        <Tabs.Panel value="api_keys" pt="md">
          <ApiKeysTab />
        </Tabs.Panel>
        <Tabs.Panel value="favorites" pt="md">
          <FavoritesTab />
        </Tabs.Panel>
        <Tabs.Panel value="sign_ins" pt="md">
          <SignInsTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
