"""A library of near-duplicate pages (one per cloud provider) and a page of its own:
questions about the duplicates leave retrieval unsure between them, a question about
the other page does not."""

from __future__ import annotations

from pathlib import Path

PROVIDERS = ("aws", "azure", "google")
# Retrieval is not sure which provider's page these are about.
UNSURE_QUESTIONS = ("how do I give a function more memory", "what is the function timeout")
SURE_QUESTION = "How do I install plugins?"


def provider_page(provider: str, steps: int = 5) -> str:
    """A provider's page: its memory section (the memory sentence first, then `steps`
    paragraphs of deployment steps) and its timeout section."""
    paragraphs = "\n\n".join(
        f"Step {number} of the {provider} deployment writes region, stage and log settings."
        for number in range(1, steps + 1)
    )
    return (
        f"# {provider.upper()} functions\n\n## Function memory\n\n"
        f"To give a function more memory on {provider}, set memorySize in its settings.\n\n"
        f"{paragraphs}\n\n## Function timeout\n\n"
        f"A function on {provider} stops after the timeout in its settings, six seconds "
        "unless set.\n"
    )


def write_cloud_pages(folder: Path) -> Path:
    """The library in `folder` (made if need be); returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    for provider in PROVIDERS:
        (folder / f"{provider}.md").write_text(provider_page(provider), encoding="utf-8")
    (folder / "plugins.md").write_text(
        "# Plugins\n\nInstall plugins with the plugin install command, then list them in "
        "the plugins section of the service file.\n",
        encoding="utf-8",
    )
    return folder
