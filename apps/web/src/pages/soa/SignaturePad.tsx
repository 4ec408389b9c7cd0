/**
 * A box to draw a signature in with a finger, pen or mouse (pointer events), kept sharp on high-density screens.
 * Someone who cannot draw can have their typed name written into the box instead ("Use my typed name"), so the
 * form never depends on a pointer. The drawing is handed up as a PNG data URL (null while empty).
 */
import { Box, Button, Group, Text } from '@mantine/core';
import { useCallback, useEffect, useRef } from 'react';

const HEIGHT = 160;

export function SignaturePad({
  onChange,
  typedName,
  labelId,
}: {
  onChange: (png: string | null) => void;
  typedName: string;
  labelId: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const inked = useRef(false);

  const context = useCallback(() => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return null;
    return { c, ctx };
  }, []);

  const reset = useCallback(() => {
    const k = context();
    if (!k) return;
    const ratio = window.devicePixelRatio || 1;
    const width = k.c.parentElement?.clientWidth ?? 320;
    k.c.width = width * ratio;
    k.c.height = HEIGHT * ratio;
    k.c.style.width = `${width}px`;
    k.c.style.height = `${HEIGHT}px`;
    k.ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    // The signature is ink on white paper in either theme, as it is stored and printed.
    k.ctx.fillStyle = '#ffffff';
    k.ctx.fillRect(0, 0, width, HEIGHT);
    k.ctx.strokeStyle = '#111111';
    k.ctx.lineWidth = 2.2;
    k.ctx.lineCap = 'round';
    k.ctx.lineJoin = 'round';
    inked.current = false;
    onChange(null);
  }, [context, onChange]);

  useEffect(() => {
    reset();
  }, [reset]);

  const at = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const finish = () => {
    if (!drawing.current) return;
    drawing.current = false;
    if (inked.current) onChange(canvas.current?.toDataURL('image/png') ?? null);
  };

  const typeIn = () => {
    const k = context();
    if (!k || !typedName.trim()) return;
    reset();
    const width = k.c.clientWidth;
    k.ctx.fillStyle = '#111111';
    k.ctx.font = 'italic 36px "Brush Script MT", "Segoe Script", cursive';
    k.ctx.textBaseline = 'middle';
    k.ctx.fillText(typedName.trim(), 16, HEIGHT / 2, width - 32);
    inked.current = true;
    onChange(k.c.toDataURL('image/png'));
  };

  return (
    <div>
      <Box
        style={{
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-sm)',
          overflow: 'hidden',
          touchAction: 'none',
        }}
      >
        <canvas
          ref={canvas}
          role="img"
          aria-labelledby={labelId}
          style={{ display: 'block', cursor: 'crosshair' }}
          onPointerDown={(e) => {
            const k = context();
            if (!k) return;
            e.currentTarget.setPointerCapture(e.pointerId);
            drawing.current = true;
            const p = at(e);
            k.ctx.beginPath();
            k.ctx.moveTo(p.x, p.y);
            k.ctx.lineTo(p.x + 0.1, p.y + 0.1);
            k.ctx.stroke();
            inked.current = true;
          }}
          onPointerMove={(e) => {
            const k = context();
            if (!drawing.current || !k) return;
            const p = at(e);
            k.ctx.lineTo(p.x, p.y);
            k.ctx.stroke();
          }}
          onPointerUp={finish}
          onPointerLeave={finish}
          onPointerCancel={finish}
        />
      </Box>
      <Group justify="space-between" mt={4}>
        <Text size="xs" c="dimmed">
          Draw with your finger, pen or mouse.
        </Text>
        <Group gap="xs">
          <Button size="compact-sm" variant="subtle" onClick={typeIn} disabled={!typedName.trim()}>
            Use my typed name
          </Button>
          <Button size="compact-sm" variant="subtle" color="gray" onClick={reset}>
            Clear
          </Button>
        </Group>
      </Group>
    </div>
  );
}
