import { List, Stack, Text, Title } from '@mantine/core';

export function PrivacyContent() {
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Last updated January 15, 2025
      </Text>
      <Text>
        Harbor is used by insurance agents and agencies to manage their clients and prospects. This notice explains what
        we collect, why, and the choices you have.
      </Text>

      <Title order={3}>What we collect</Title>
      <List spacing={4}>
        <List.Item>
          <b>Account data</b>: your name, email, role, company, time zone and display preferences.
        </List.Item>
        <List.Item>
          <b>Contact records</b> your company keeps: names, addresses, phone numbers, policies, notes and files. For
          these records your company is the data controller and we process them on its behalf.
        </List.Item>
        <List.Item>
          <b>Usage and security data</b>: sign-in times, IP addresses and two-factor events, kept to protect accounts.
        </List.Item>
        <List.Item>
          <b>Call and message data</b> when you use the dialer or SMS: numbers, times, durations and, where you turn it
          on, recordings.
        </List.Item>
      </List>

      <Title order={3}>How we use it</Title>
      <Text>
        To run the service you and your company signed up for, to secure it, to bill paid features, and to answer
        support requests. We do not sell personal information and we do not use your contacts for our own marketing.
      </Text>

      <Title order={3}>Who we share it with</Title>
      <Text>
        Service providers that host, send email and text messages, or carry calls for us, under contracts that limit
        their use to providing that service; and authorities where the law requires.
      </Text>

      <Title order={3}>Retention and your choices</Title>
      <Text>
        We keep data while your company's account is active and delete or return it when the account ends, except what
        we must keep by law. To see, correct or delete personal information, ask your company administrator or write to
        support@harbor.test.
      </Text>
    </Stack>
  );
}
