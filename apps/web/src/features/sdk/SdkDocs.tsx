// The Python SDK's documentation (docs/sdk-python.md), served read-only by the instance itself:
// the file is bundled with the web app (loaded on first use), so every instance shows the
// documentation of the SDK it serves, offline too. A link opens it in a drawer, optionally at a
// section (a heading whose anchor starts with the given name, e.g. 'upload_samples').
import { ReadOutlined } from '@ant-design/icons';
import { Button, Drawer, Skeleton, Typography, theme } from 'antd';
import { Suspense, use, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CodeBlock } from './CodeBlock';
import { parseMarkdown, slug, type Block, type Inline } from './markdown';
import { sdkStrings as strings } from './strings';

let docs: Promise<string> | undefined;
function loadDocs(): Promise<string> {
  docs ??= import('../../../../../docs/sdk-python.md?raw').then((module) => module.default);
  return docs;
}

function InlineText({ pieces, onAnchor }: { pieces: Inline[]; onAnchor(id: string): void }) {
  return pieces.map((piece, index) => {
    switch (piece.type) {
      case 'code':
        return (
          <Typography.Text key={index} code>
            {piece.text}
          </Typography.Text>
        );
      case 'strong':
        return <strong key={index}>{piece.text}</strong>;
      case 'link':
        if (piece.href.startsWith('#')) {
          const id = piece.href.slice(1);
          return (
            <Typography.Link
              key={index}
              href={piece.href}
              onClick={(event) => {
                event.preventDefault();
                onAnchor(id);
              }}
            >
              {piece.text}
            </Typography.Link>
          );
        }
        if (/^https?:\/\//.test(piece.href)) {
          return (
            <Typography.Link key={index} href={piece.href} target="_blank" rel="noreferrer">
              {piece.text}
            </Typography.Link>
          );
        }
        // Another page of the repository's docs/: not served here, so named, not linked.
        return (
          <span key={index} title={strings.docsElsewhere(`docs/${piece.href.split('#')[0]}`)}>
            {piece.text}
          </span>
        );
      default:
        return <span key={index}>{piece.text}</span>;
    }
  });
}

function BlockView({ block, onAnchor }: { block: Block; onAnchor(id: string): void }) {
  const { token } = theme.useToken();
  switch (block.type) {
    case 'heading':
      return (
        <Typography.Title
          id={block.id}
          level={block.level <= 2 ? 4 : 5}
          style={{ marginTop: block.level <= 2 ? 28 : 20, scrollMarginTop: 8 }}
        >
          <InlineText pieces={block.inline} onAnchor={onAnchor} />
        </Typography.Title>
      );
    case 'code':
      return (
        <div style={{ marginBottom: 14 }}>
          <CodeBlock code={block.text} copyLabel={strings.copyCode} />
        </div>
      );
    case 'list':
      return (
        <ul style={{ paddingInlineStart: 20, marginBottom: 14 }}>
          {block.items.map((item, index) => (
            <li key={index}>
              <InlineText pieces={item} onAnchor={onAnchor} />
            </li>
          ))}
        </ul>
      );
    case 'table': {
      const cell: React.CSSProperties = {
        border: `1px solid ${token.colorBorderSecondary}`,
        padding: '6px 8px',
        verticalAlign: 'top',
        textAlign: 'start',
      };
      return (
        <div style={{ overflowX: 'auto', marginBottom: 14 }}>
          <table style={{ borderCollapse: 'collapse', fontSize: token.fontSizeSM, width: '100%' }}>
            <thead>
              <tr style={{ background: token.colorFillQuaternary }}>
                {block.header.map((pieces, index) => (
                  <th key={index} style={cell}>
                    <InlineText pieces={pieces} onAnchor={onAnchor} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((pieces, index) => (
                    // The first column names things (fields, methods): room for a name.
                    <td key={index} style={index === 0 ? { ...cell, minWidth: 120 } : cell}>
                      <InlineText pieces={pieces} onAnchor={onAnchor} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    default:
      return (
        <Typography.Paragraph>
          <InlineText pieces={block.inline} onAnchor={onAnchor} />
        </Typography.Paragraph>
      );
  }
}

function DocsContent({ section }: { section?: string }) {
  const source = use(loadDocs());
  // The page's own title is the drawer's.
  const blocks = useMemo(
    () => parseMarkdown(source).filter((block) => !(block.type === 'heading' && block.level === 1)),
    [source],
  );
  const ref = useRef<HTMLDivElement>(null);
  const scrollTo = (prefix: string) => {
    const target = [...(ref.current?.querySelectorAll<HTMLElement>('[id]') ?? [])].find((element) =>
      element.id.startsWith(slug(prefix)),
    );
    target?.scrollIntoView({ block: 'start' });
  };
  useLayoutEffect(() => {
    if (section) scrollTo(section);
  }, [section]);
  return (
    <div ref={ref} data-testid="sdk-docs">
      {blocks.map((block, index) => (
        <BlockView key={index} block={block} onAnchor={scrollTo} />
      ))}
    </div>
  );
}

export interface SdkDocsDrawerProps {
  open: boolean;
  onClose(): void;
  section?: string;
}

export function SdkDocsDrawer({ open, onClose, section }: SdkDocsDrawerProps) {
  return (
    <Drawer open={open} onClose={onClose} title={strings.docsTitle} size={760} destroyOnHidden>
      <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
        {open && <DocsContent section={section} />}
      </Suspense>
    </Drawer>
  );
}

/** A link that opens the SDK documentation (at `section`) in a drawer. */
export function SdkDocsLink({ section, children }: { section?: string; children?: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="link"
        size="small"
        icon={<ReadOutlined />}
        onClick={() => setOpen(true)}
        style={{ paddingInline: 0, height: 'auto' }}
      >
        {children ?? strings.docs}
      </Button>
      <SdkDocsDrawer open={open} onClose={() => setOpen(false)} section={section} />
    </>
  );
}
