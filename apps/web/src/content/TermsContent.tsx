import { List, Stack, Text, Title } from '@mantine/core';

export const TERMS_UPDATED = 'January 15, 2025';

/** The terms of use: shown at /terms-of-use and in the blocking acceptance dialog. */
export function TermsContent({ headingOrder = 2 }: { headingOrder?: 2 | 3 }) {
  const h = headingOrder + 1;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Last updated {TERMS_UPDATED}
      </Text>
      <Text>
        These terms govern your use of Harbor, a customer-relationship service for insurance agents, agencies and their
        staff, provided by Harbor ("we", "us"). Your company's agreement with us also applies; where the two differ,
        that agreement wins.
      </Text>

      <Title order={h as 3 | 4}>1. Your account</Title>
      <Text>
        Your company administrator creates your account. Keep your password and any two-factor device to yourself, and
        tell your administrator at once if you think someone else has used your account. You are responsible for what is
        done under your sign-in.
      </Text>

      <Title order={h as 3 | 4}>2. Contact data and compliance</Title>
      <Text>
        You and your company remain the owners of the contacts, policies and notes you keep in Harbor, and you are
        responsible for having the right to hold them. In particular you agree to:
      </Text>
      <List spacing={4}>
        <List.Item>
          follow the insurance, Medicare-marketing and scope-of-appointment rules that apply to you and your carriers;
        </List.Item>
        <List.Item>
          call, text or email people only with the consent the law requires (including the TCPA and CAN-SPAM), and honor
          opt-outs promptly;
        </List.Item>
        <List.Item>keep health and financial information to the minimum your work needs;</List.Item>
        <List.Item>not import lists you are not allowed to use.</List.Item>
      </List>

      <Title order={h as 3 | 4}>3. Paid features</Title>
      <Text>
        Calls, text messages and some plans are paid, through your company's plan or a prepaid wallet. Charges are shown
        before you confirm them. Wallet balances are not refundable except where the law requires.
      </Text>

      <Title order={h as 3 | 4}>4. Acceptable use</Title>
      <Text>
        Do not try to reach data of another company, probe or overload the service, resell access, or use Harbor to send
        unlawful, deceptive or unsolicited messages. We may suspend an account that does, and will tell your company
        administrator why.
      </Text>

      <Title order={h as 3 | 4}>5. Availability and changes</Title>
      <Text>
        We work to keep Harbor available and your data safe, but the service is provided as is. We may change these
        terms; when we do, we will ask you to accept the new version the next time you sign in.
      </Text>

      <Title order={h as 3 | 4}>6. Contact</Title>
      <Text>Questions about these terms: support@harbor.test.</Text>
    </Stack>
  );
}
