"""A small library in Chinese, Japanese and Korean (with one English document), and
questions whose answers it holds or does not."""

from __future__ import annotations

from pathlib import Path

DOCUMENTS = {
    "kitchen-zh.md": """\
# 厨房笔记

## 煮面条

煮面条时要用大锅，多放水。水烧开后先加一勺盐，再放面条。煮的时候要不时搅拌，以免面条粘在一起。

## 刀具保养

刀具用完后要马上用清水洗净并擦干，不要放进洗碗机。刀具应该定期用磨刀石磨一磨，保持锋利。

## 煮米饭

煮米饭前先把米淘洗两三遍。米和水的比例大约是一比一点二，浸泡三十分钟后再煮，米饭会更香。
""",
    "kitchen-ja.md": """\
# 台所のメモ

## ゆで卵

卵は沸騰したお湯に入れて、七分ゆでると半熟になります。ゆでた後はすぐに冷水で冷やすと、殻がむきやすくなります。

## 味噌汁

味噌汁は沸騰させないでください。だしを温めてから火を止めて、味噌を溶き入れます。沸騰させると香りが飛びます。

## 包丁の手入れ

包丁は使ったらすぐに洗って水気を拭き取ります。食洗機には入れないでください。月に一度は砥石で研ぎます。
""",
    "home-ko.md": """\
# 집 관리

## 보일러 압력

보일러 압력은 차가울 때 1에서 1.5 바 사이여야 합니다. 압력이 낮으면 보충 밸브를 열어 물을 채웁니다.

## 라디에이터

라디에이터는 매년 가을에 공기를 빼 주어야 합니다. 공기가 차 있으면 라디에이터 위쪽이 차갑습니다.
""",
    "bread.md": "# Bread\n\nKnead the dough for ten minutes and let it rise until doubled in size.\n",
}

# Headings with no ASCII letter get numbered `section` anchors.
ANSWERED = [
    ("煮面条时要加盐吗？", "kitchen-zh"),
    ("刀具怎么保养？", "kitchen-zh#section"),
    ("米和水的比例是多少？", "kitchen-zh#section-2"),
    ("半熟卵は何分ゆでますか？", "kitchen-ja"),
    ("味噌汁を沸騰させてもいいですか？", "kitchen-ja#section"),
    ("包丁は食洗機に入れてもいいですか？", "kitchen-ja#section-2"),
    ("보일러 압력은 얼마여야 합니까?", "home-ko"),
    ("라디에이터 공기는 언제 빼야 하나요?", "home-ko#section"),
    ("How long should I knead the dough?", "bread"),
]
NOT_IN_THE_LIBRARY = [
    "如何修理汽车发动机？",
    "株式市場の動向について教えてください",
    "자동차 엔진은 어떻게 수리합니까?",
]


def write_cjk_library(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in DOCUMENTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder
