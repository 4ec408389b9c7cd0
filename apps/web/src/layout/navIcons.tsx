import {
  type Icon,
  IconAddressBook,
  IconCalendarRepeat,
  IconChartBar,
  IconFileCertificate,
  IconFileImport,
  IconLayoutDashboard,
  IconMessage,
  IconPhone,
  IconRoute,
  IconSchool,
  IconSettings,
  IconStethoscope,
  IconUserCircle,
  IconUsersGroup,
  IconWallet,
} from '@tabler/icons-react';
import type { NavIcon } from './nav';

/** Kept apart from nav.ts so the config (and its tests) stay free of React. */
export const NAV_ICONS: Record<NavIcon, Icon> = {
  dashboard: IconLayoutDashboard,
  contacts: IconAddressBook,
  imports: IconFileImport,
  sms: IconMessage,
  dialer: IconPhone,
  wallet: IconWallet,
  workflows: IconRoute,
  reports: IconChartBar,
  follow_ups: IconCalendarRepeat,
  medicare: IconStethoscope,
  soa: IconFileCertificate,
  trainings: IconSchool,
  team: IconUsersGroup,
  admin: IconSettings,
  profile: IconUserCircle,
};
