"""Markdown as documentation sites write it (VitePress, Docusaurus and MDX, mkdocs-material,
GitHub): the text a reader sees, never the syntax; code samples stay code; one text line
for each file line."""

from __future__ import annotations

from tui_assistant.core.checks.quotes import find_quote
from tui_assistant.core.documents.passage import Document
from tui_assistant.core.documents.split import split_document


def split(text: str, path: str = "guide/routing.md") -> Document:
    return split_document(path, text)


def shown(text: str) -> list[str]:
    (only,) = split(text).passages
    return only.text.split("\n")


def test_vitepress_containers_read_as_their_titles() -> None:
    text = """\
# Routing

::: tip
Use clean URLs.
:::

::: warning Careful
Trailing slashes matter.
:::

::: details Click to see the config
`cleanUrls: true`
:::

::: code-group
```sh [npm]
npm add -D vitepress
```
:::
"""
    assert shown(text) == [
        "Tip:",
        "Use clean URLs.",
        "",
        "",
        "Careful:",
        "Trailing slashes matter.",
        "",
        "",
        "Click to see the config",
        "`cleanUrls: true`",
        "",
        "",
        "",
        "```sh [npm]",
        "npm add -D vitepress",
        "```",
    ]


def test_docusaurus_admonitions_and_mdx_read_as_the_page() -> None:
    text = """\
---
title: Installation
---

import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';

export const versions = {
  stable: '3.5',
};

{/* Keep this in sync with the README. */}

:::note[Node.js]
You need Node.js 18.
:::

<Tabs>
<TabItem value="npm" label="npm">

```bash
npm init docusaurus
```

</TabItem>
</Tabs>
"""
    lines = [line for line in shown(text) if line]
    assert lines == [
        "Node.js:",
        "You need Node.js 18.",
        "npm",
        "```bash",
        "npm init docusaurus",
        "```",
    ]


def test_react_docs_components_read_as_their_names_and_their_code_stays_code() -> None:
    text = """\
# useState

<Pitfall>
Calling the set function does not change state in the running code.
</Pitfall>

<DeepDive>
#### Is using an updater always preferred?
</DeepDive>

<Sandpack>

```js
export default function Counter() {
  return <Button onClick={() => {}}>Add</Button>;
}
```

</Sandpack>

Call <CodeStep step={1}>useState</CodeStep> at the top, with `Vec<T>` and <T> left alone.
"""
    lines = [line for line in shown(text) if line]
    assert lines == [
        "Pitfall:",
        "Calling the set function does not change state in the running code.",
        "Deep Dive:",
        "#### Is using an updater always preferred?",
        "```js",
        "export default function Counter() {",
        "  return <Button onClick={() => {}}>Add</Button>;",
        "}",
        "```",
        "Call useState at the top, with `Vec<T>` and <T> left alone.",
    ]


def test_mkdocs_admonitions_and_tabs_read_their_indented_content_as_text_and_code() -> None:
    text = """\
# Configuration

!!! note "Plugins"
    Plugins are listed in `mkdocs.yml`.

??? tip
    Collapsed by default.

=== "pip"

    ```sh
    pip install mkdocs
    ```

=== "uv"
    uv add mkdocs
"""
    document = split(text)
    (only,) = document.passages
    assert only.text.split("\n") == [
        "Plugins:",
        "Plugins are listed in `mkdocs.yml`.",
        "",
        "Tip:",
        "Collapsed by default.",
        "",
        "pip",
        "",
        "```sh",
        "pip install mkdocs",
        "```",
        "",
        "uv",
        "uv add mkdocs",
    ]
    # A quote from the text stands on its file line.
    found = find_quote("Collapsed by default.", only.passage("guide/routing", "guide/routing.md"))
    assert found is not None
    assert (found.line, found.end_line) == (7, 7)


def test_github_alerts_read_as_their_word() -> None:
    text = "# Setup\n\n> [!WARNING]\n> Back up first.\n"
    assert shown(text) == ["> Warning:", "> Back up first."]
