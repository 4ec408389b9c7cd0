/**
 * The rich-text editor of email templates (Mantine's Tiptap editor): bold, italic, lists, headings, links, undo.
 * Loaded only when a template is edited, so other pages never download it. Merge fields are typed as {{name}}.
 */
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';
import '@mantine/tiptap/styles.css';

export default function RichTextField(props: {
  value: string;
  onChange: (html: string) => void;
  label: string;
  /** Text to insert at the cursor (a merge field); cleared by the caller after. */
  insert: string | null;
  onInserted: () => void;
}) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), Link.configure({ openOnClick: false })],
    content: props.value,
    immediatelyRender: false,
    onUpdate: ({ editor }) => props.onChange(editor.getHTML()),
    editorProps: { attributes: { 'aria-label': props.label, role: 'textbox', 'aria-multiline': 'true' } },
  });
  useEffect(() => {
    if (editor && props.insert) {
      editor.chain().focus().insertContent(props.insert).run();
      props.onInserted();
    }
  }, [editor, props.insert, props.onInserted]);
  return (
    <RichTextEditor editor={editor}>
      <RichTextEditor.Toolbar>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <RichTextEditor.Underline />
          <RichTextEditor.Strikethrough />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.H2 />
          <RichTextEditor.H3 />
          <RichTextEditor.BulletList />
          <RichTextEditor.OrderedList />
          <RichTextEditor.Blockquote />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Link />
          <RichTextEditor.Unlink />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Undo />
          <RichTextEditor.Redo />
        </RichTextEditor.ControlsGroup>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content style={{ minHeight: 220 }} />
    </RichTextEditor>
  );
}
