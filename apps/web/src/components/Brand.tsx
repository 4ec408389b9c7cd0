import { Anchor } from '@mantine/core';
import { Link } from 'react-router';

/** The id the skip link of both layouts jumps to. */
export const MAIN_ID = 'main-content';

/** The brand in the header of both layouts: a link home, not a heading (each page has its own h1). */
export function Brand() {
  return (
    <Anchor component={Link} to="/" fw={700} fz="h3" underline="never">
      Harbor
    </Anchor>
  );
}
