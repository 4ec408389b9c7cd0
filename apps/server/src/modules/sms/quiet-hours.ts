/**
 * Quiet hours in the recipient's time zone (TCPA: no marketing texts before 8 a.m. or after 9 p.m. where the person
 * is). A contact's zone comes from their state (the zone most of the state keeps); without a state, Eastern time.
 */
import { SMS_QUIET_HOURS } from '@harbor/shared';

const ZONES: Record<string, string[]> = {
  'America/New_York': [
    'CT',
    'DE',
    'DC',
    'FL',
    'GA',
    'IN',
    'KY',
    'ME',
    'MD',
    'MA',
    'MI',
    'NH',
    'NJ',
    'NY',
    'NC',
    'OH',
    'PA',
    'RI',
    'SC',
    'VT',
    'VA',
    'WV',
  ],
  'America/Chicago': ['AL', 'AR', 'IL', 'IA', 'KS', 'LA', 'MN', 'MS', 'MO', 'NE', 'ND', 'OK', 'SD', 'TN', 'TX', 'WI'],
  'America/Denver': ['CO', 'ID', 'MT', 'NM', 'UT', 'WY'],
  'America/Phoenix': ['AZ'],
  'America/Los_Angeles': ['CA', 'NV', 'OR', 'WA'],
  'America/Anchorage': ['AK'],
  'Pacific/Honolulu': ['HI'],
  'America/Puerto_Rico': ['PR', 'VI'],
};
const ZONE_OF = new Map(Object.entries(ZONES).flatMap(([zone, states]) => states.map((s) => [s, zone] as const)));
export const DEFAULT_ZONE = 'America/New_York';

export const zoneOfState = (state: string | null | undefined) =>
  ZONE_OF.get((state ?? '').trim().toUpperCase()) ?? DEFAULT_ZONE;

// Building a formatter costs far more than using one, and a broadcast asks once per recipient.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string) {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });
    formatters.set(zone, f);
  }
  return f;
}

/** When the quiet hours of `zone` end, if `now` falls in them; null when a text may go now. */
export function quietUntil(zone: string, now = new Date()): Date | null {
  const parts = formatterOf(zone).formatToParts(now);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  const { from, to } = SMS_QUIET_HOURS;
  if (hour >= to && hour < from) return null;
  const minutesLeft = (hour >= from ? 24 - hour + to : to - hour) * 60 - minute;
  return new Date(now.getTime() + minutesLeft * 60_000);
}
