/**
 * Wallet analytics as charts (the spec asks for charts, not tables): money in and usage per day (per month over a
 * year) as paired bars, and usage by type as horizontal bars. Plain SVG scaled by its viewBox, a few kilobytes,
 * loaded only when the analytics section is shown. Each chart carries a text summary for screen readers.
 */
import { formatUsd, type WalletAnalytics } from '@harbor/shared';
import { Group, Stack, Text } from '@mantine/core';

const IN = 'var(--mantine-color-teal-6)';
const OUT = 'var(--mantine-color-orange-6)';
const GRID = 'var(--mantine-color-default-border)';
const INK = 'var(--mantine-color-dimmed)';

/** A round top for the y axis: 1, 2 or 5 times a power of ten, in cents. */
function niceMax(v: number) {
  if (v <= 0) return 100;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * p >= v) ?? 10) * p;
}

const short = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  const dt = new Date(y, m - 1, d ?? 1);
  return d
    ? dt.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })
    : dt.toLocaleDateString('en-US', { month: 'short' });
};

function Legend() {
  const dot = (color: string) => (
    <svg width="12" height="12" aria-hidden="true">
      <rect width="12" height="12" rx="2" fill={color} />
    </svg>
  );
  return (
    <Group gap="md">
      <Group gap={6}>
        {dot(IN)}
        <Text size="xs">Money in</Text>
      </Group>
      <Group gap={6}>
        {dot(OUT)}
        <Text size="xs">Usage</Text>
      </Group>
    </Group>
  );
}

export function AnalyticsChart({ data }: { data: WalletAnalytics }) {
  const W = 640;
  const H = 220;
  const left = 56;
  const bottom = 24;
  const top = 8;
  const max = niceMax(Math.max(...data.series.map((p) => Math.max(p.credits, p.spend))));
  const n = data.series.length;
  const slot = (W - left - 8) / n;
  const bar = Math.max(1, Math.min(14, slot / 2 - 1));
  const y = (v: number) => top + (H - top - bottom) * (1 - v / max);
  const every = Math.ceil(n / 8);
  const summary = `${data.scope === 'company' ? 'Company' : 'Your'} wallet, ${short(data.from)} to ${short(data.to)}: ${formatUsd(data.totals.credits)} in, ${formatUsd(data.totals.spend)} of usage.`;
  const usageMax = Math.max(1, ...data.by_usage_type.map((u) => u.amount));
  return (
    <Stack gap="sm">
      <figure style={{ margin: 0 }}>
        <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={summary} style={{ display: 'block' }}>
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line x1={left} x2={W - 4} y1={y(max * f)} y2={y(max * f)} stroke={GRID} />
              <text x={left - 6} y={y(max * f) + 4} textAnchor="end" fontSize="11" fill={INK}>
                {formatUsd(max * f).replace('.00', '')}
              </text>
            </g>
          ))}
          {data.series.map((p, i) => {
            const x = left + i * slot + slot / 2;
            return (
              <g key={p.date}>
                <rect x={x - bar - 0.5} y={y(p.credits)} width={bar} height={y(0) - y(p.credits)} fill={IN} rx="1">
                  <title>{`${short(p.date)}: ${formatUsd(p.credits)} in`}</title>
                </rect>
                <rect x={x + 0.5} y={y(p.spend)} width={bar} height={y(0) - y(p.spend)} fill={OUT} rx="1">
                  <title>{`${short(p.date)}: ${formatUsd(p.spend)} of usage`}</title>
                </rect>
                {i % every === 0 && (
                  <text x={x} y={H - 6} textAnchor="middle" fontSize="11" fill={INK}>
                    {short(p.date)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
        <figcaption>
          <Group justify="space-between" mt={4}>
            <Legend />
            <Text size="xs" c="dimmed">
              {summary}
            </Text>
          </Group>
        </figcaption>
      </figure>
      <figure style={{ margin: 0 }}>
        <Text size="sm" fw={500} component="figcaption" mb={4}>
          Usage by type
        </Text>
        {data.by_usage_type.length === 0 ? (
          <Text size="sm" c="dimmed">
            No usage in this period.
          </Text>
        ) : (
          <svg
            viewBox={`0 0 ${W} ${data.by_usage_type.length * 26}`}
            width="100%"
            role="img"
            aria-label={data.by_usage_type.map((u) => `${u.label}: ${formatUsd(u.amount)}`).join('; ')}
            style={{ display: 'block' }}
          >
            {data.by_usage_type.map((u, i) => {
              const w = ((W - 260) * u.amount) / usageMax;
              return (
                <g key={u.usage_type} transform={`translate(0 ${i * 26})`}>
                  <text x="0" y="16" fontSize="12" fill="currentColor">
                    {u.label}
                  </text>
                  <rect x="170" y="5" width={Math.max(2, w)} height="14" rx="2" fill={OUT} />
                  <text x={176 + Math.max(2, w)} y="16" fontSize="12" fill="currentColor">
                    {formatUsd(u.amount)}
                  </text>
                </g>
              );
            })}
          </svg>
        )}
      </figure>
    </Stack>
  );
}
