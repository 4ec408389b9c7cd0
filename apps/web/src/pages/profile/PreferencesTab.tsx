import {
  BACKGROUND_LABELS,
  BACKGROUNDS,
  type CurrentUser,
  FONT_SIZES,
  PRIMARY_COLORS,
  TIME_ZONE_LABELS,
  TIME_ZONES,
  type TimeZone,
} from '@harbor/shared';
import { Alert, NativeSelect, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';
import { type ThemeChange, updateTheme, updateTimezone } from '../../api/endpoints';
import { ME_KEY, setCurrentUser, useCurrentUser, useUserMutation } from '../../auth/session';

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: capitalize(v) }));

/** Theme changes show at once (optimistic), and roll back if the server refuses them. */
function useThemeMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTheme,
    onMutate: (change: ThemeChange) => {
      const previous = queryClient.getQueryData<CurrentUser | null>(ME_KEY);
      if (previous) queryClient.setQueryData(ME_KEY, { ...previous, profile: { ...previous.profile, ...change } });
      return { previous };
    },
    onError: (_error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(ME_KEY, context.previous);
    },
    onSuccess: (user) => setCurrentUser(queryClient, user),
  });
}

export function PreferencesTab() {
  const user = useCurrentUser();
  const theme = useThemeMutation();
  const timezone = useUserMutation(updateTimezone);
  const error = theme.error ?? timezone.error;
  return (
    <Stack maw={360}>
      <Text size="sm" c="dimmed">
        Changes are saved as you make them.
      </Text>
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      <NativeSelect
        label="Font size"
        value={user.profile.font_size}
        data={options(FONT_SIZES)}
        onChange={(e) => theme.mutate({ font_size: e.currentTarget.value as ThemeChange['font_size'] })}
      />
      <NativeSelect
        label="Primary color"
        value={user.profile.primary_color}
        data={options(PRIMARY_COLORS)}
        onChange={(e) => theme.mutate({ primary_color: e.currentTarget.value as ThemeChange['primary_color'] })}
      />
      <NativeSelect
        label="Background"
        value={user.profile.background}
        data={BACKGROUNDS.map((b) => ({ value: b, label: BACKGROUND_LABELS[b] }))}
        onChange={(e) => theme.mutate({ background: e.currentTarget.value as ThemeChange['background'] })}
      />
      <NativeSelect
        label="Time zone"
        value={user.timezone}
        data={TIME_ZONES.map((tz) => ({ value: tz, label: `${TIME_ZONE_LABELS[tz]} (${tz.toUpperCase()})` }))}
        onChange={(e) => timezone.mutate({ timezone: e.currentTarget.value as TimeZone })}
        disabled={timezone.isPending}
      />
    </Stack>
  );
}
