import {
  Alert,
  Button,
  FileInput,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { invalidRowsCsv, type Preview, saveSetting, startImport, validateImport } from '../../api/imports';
import { callQuery, qk } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';
import { mayPickOwners } from '../../components/pickers';
import { ImportOptions, initialOptions, type OptionsState, toForm } from './ImportOptions';
import { MappingTable } from './MappingTable';
import { PreviewSummary } from './PreviewSummary';
import { watchImport } from './watchImport';

export function ImportWizardPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [sheet, setSheet] = useState<string | undefined>();
  // Kept apart from the preview: a sheet that holds no list fails its preview, and the picker must stay to go back.
  const [sheets, setSheets] = useState<string[]>([]);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [options, setOptions] = useState<OptionsState>(initialOptions);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewed, setPreviewed] = useState(false);
  const [settingName, setSettingName] = useState('');
  const settings = useQuery(callQuery('GET /v1/import_settings'));

  const form = () => ({ ...toForm(options), fields: mapping, sheet });
  const validate = useMutation({
    mutationFn: (args: { file: File; fields: Record<string, string>; sheet?: string }) =>
      validateImport(args.file, { ...toForm(options), fields: args.fields, sheet: args.sheet }),
    onSuccess: (p) => {
      setPreview(p);
      setSheets(p.sheets);
      // The server picks the first sheet holding a list when none was asked for; the picker shows which.
      setSheet(p.sheet ?? undefined);
      setMapping(Object.fromEntries(p.columns.map((c) => [c.header, c.field])));
    },
  });
  const start = useMutation({
    mutationFn: () => startImport(file as File, form()),
    onSuccess: (attempt) => {
      watchImport(attempt);
      void queryClient.invalidateQueries({ queryKey: qk('GET /v1/contacts/import_attempts') });
      navigate(`/contacts/imports/${attempt.id}`);
    },
  });
  const save = useMutation({
    mutationFn: () => saveSetting(settingName.trim(), { fields: mapping, options }),
    onSuccess: () => {
      setSettingName('');
      void queryClient.invalidateQueries({ queryKey: qk('GET /v1/import_settings') });
    },
  });
  const download = useMutation({
    mutationFn: () => invalidRowsCsv(file as File, form()),
    onSuccess: (blob) => {
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `${file?.name.replace(/\.[^.]+$/, '') ?? 'list'}-invalid.csv`;
      a.click();
      URL.revokeObjectURL(url);
    },
  });

  const pick = (f: File | null) => {
    setFile(f);
    setPreview(null);
    setPreviewed(false);
    setMapping({});
    setSheet(undefined);
    setSheets([]);
    if (f) validate.mutate({ file: f, fields: {} });
  };
  const runPreview = () => {
    if (!file) return;
    setPreviewed(true);
    validate.mutate({ file, fields: mapping, sheet });
  };
  const loadSetting = (id: string) => {
    const s = settings.data?.data.find((x) => String(x.id) === id);
    if (!s) return;
    const fields = (s.data.fields ?? {}) as Record<string, string>;
    const known = new Set(preview?.columns.map((c) => c.header) ?? []);
    setMapping((m) => ({ ...m, ...Object.fromEntries(Object.entries(fields).filter(([h]) => known.has(h))) }));
    if (s.data.options) setOptions({ ...initialOptions, ...(s.data.options as Partial<OptionsState>) });
    setPreviewed(false);
  };
  const error = validate.error ?? start.error ?? save.error ?? download.error;

  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <PageHeading title="Import contacts" />
        <Button component={Link} to="/contacts/imports" variant="subtle">
          All imports
        </Button>
      </Group>
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FileInput
            label="List file (CSV or XLSX)"
            placeholder="Choose a file"
            accept=".csv,.tsv,.txt,.xlsx"
            value={file}
            onChange={pick}
            clearable
          />
          {sheets.length > 1 && (
            <NativeSelect
              label="Sheet"
              description="The workbook has several sheets: pick the one the list is on"
              value={sheet ?? ''}
              data={sheets}
              onChange={(e) => {
                const s = e.currentTarget.value;
                setSheet(s);
                setPreview(null);
                setPreviewed(false);
                if (file) validate.mutate({ file, fields: {}, sheet: s });
              }}
            />
          )}
        </SimpleGrid>
      </Paper>
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {preview && (
        <>
          <Paper withBorder p="md">
            <Group justify="space-between" mb="sm">
              <Title order={3}>Columns</Title>
              <Group align="flex-end">
                <NativeSelect
                  label="Saved mapping"
                  data={[
                    { value: '', label: 'Choose…' },
                    ...(settings.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name })),
                  ]}
                  onChange={(e) => loadSetting(e.currentTarget.value)}
                />
                <TextInput
                  label="Mapping name"
                  value={settingName}
                  onChange={(e) => setSettingName(e.currentTarget.value)}
                />
                <Button
                  variant="light"
                  disabled={!settingName.trim()}
                  loading={save.isPending}
                  onClick={() => save.mutate()}
                >
                  Save mapping
                </Button>
              </Group>
            </Group>
            <MappingTable
              columns={preview.columns}
              mapping={mapping}
              onChange={(h, f) => {
                setMapping((m) => ({ ...m, [h]: f }));
                setPreviewed(false);
              }}
            />
          </Paper>
          <Paper withBorder p="md">
            <Title order={3} mb="sm">
              Options
            </Title>
            <ImportOptions
              value={options}
              onChange={(o) => {
                setOptions(o);
                setPreviewed(false);
              }}
              // Picking another owner needs both: imports for others (imports.track) and the owners list (users.manage).
              canPickOwner={user.permissions.includes('imports.track') && mayPickOwners(user)}
            />
          </Paper>
          <Group>
            <Button variant="default" onClick={runPreview} loading={validate.isPending}>
              Preview
            </Button>
            <Button
              onClick={() => start.mutate()}
              disabled={!previewed || validate.isPending}
              loading={start.isPending}
            >
              Start import
            </Button>
          </Group>
          {previewed && !validate.isPending && (
            <PreviewSummary preview={preview} onDownload={() => download.mutate()} />
          )}
        </>
      )}
    </Stack>
  );
}
