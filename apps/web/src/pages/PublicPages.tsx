import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { PageHeading } from '../components/PageHeading';
import { PrivacyContent } from '../content/PrivacyContent';
import { TermsContent } from '../content/TermsContent';

export const SUPPORT_EMAIL = 'support@harbor.test';

/** Builds the mailto: link the contact form opens; nothing is sent to our server. */
export function contactMailto(form: { name: string; email: string; subject: string; message: string }): string {
  const subject = form.subject.trim() || 'Question about Harbor';
  const body = `${form.message.trim()}\n\n— ${form.name.trim()}${form.email.trim() ? ` <${form.email.trim()}>` : ''}`;
  return `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

export function ContactUsPage() {
  const [form, setForm] = useState({ name: '', email: '', subject: '', message: '' });
  const set = (key: keyof typeof form) => (e: { currentTarget: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.currentTarget.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    window.location.href = contactMailto(form);
  };
  return (
    <Stack gap="lg">
      <div>
        <PageHeading title="Contact us" />
        <Text c="dimmed">
          Questions about your account, billing or a feature? Our support team answers on business days, usually within
          one working day.
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Card withBorder>
          <Stack gap="xs">
            <Group gap="xs">
              <IconMail size={18} />
              <Title order={3} size="h5">
                Email
              </Title>
            </Group>
            <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor>
            <Text size="sm" c="dimmed">
              For password resets, use "Forgot password?" on the sign-in page. For plans and seats, your company admin
              can help fastest.
            </Text>
          </Stack>
        </Card>
        <Card withBorder component="form" onSubmit={submit} aria-label="Contact form">
          <Stack gap="sm">
            <TextInput label="Your name" required value={form.name} onChange={set('name')} />
            <TextInput label="Your email" type="email" value={form.email} onChange={set('email')} />
            <TextInput label="Subject" value={form.subject} onChange={set('subject')} />
            <Textarea label="Message" required autosize minRows={4} value={form.message} onChange={set('message')} />
            <Text size="xs" c="dimmed">
              Sending opens your email app with the message filled in.
            </Text>
            <Button type="submit">Write email</Button>
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

export function PrivacyPolicyPage() {
  return (
    <Stack gap="md">
      <PageHeading title="Privacy policy" />
      <PrivacyContent />
    </Stack>
  );
}

export function TermsOfUsePage() {
  return (
    <Stack gap="md">
      <PageHeading title="Terms of use" />
      <TermsContent />
    </Stack>
  );
}
