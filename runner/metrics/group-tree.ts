// The root_group tree of handleSummary data, built from `checks` and `group_duration` samples in
// first-seen order, with k6's ids: the hex md5 of each path.
import { createHash } from 'node:crypto';

/** The tree's nodes are handleSummary's groups and checks. */
export type { SummaryCheck as CheckNode, SummaryGroup as GroupNode } from '@loadlab/k6-format/summary';
import type { SummaryCheck as CheckNode, SummaryGroup as GroupNode } from '@loadlab/k6-format/summary';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

export class GroupTree {
  readonly root: GroupNode = { name: '', path: '', id: md5(''), groups: [], checks: [] };
  private readonly groups = new Map<string, GroupNode>([['', this.root]]);
  private readonly checks = new Map<string, CheckNode>();

  /** `::a::b` -> the node, creating `::a` and `::a::b` in order when new. */
  group(path: string): GroupNode {
    const known = this.groups.get(path);
    if (known) return known;
    const cut = path.lastIndexOf('::');
    const parent = this.group(cut <= 0 ? '' : path.slice(0, cut));
    const node: GroupNode = { name: path.slice(cut + 2), path, id: md5(path), groups: [], checks: [] };
    parent.groups.push(node);
    this.groups.set(path, node);
    return node;
  }

  check(groupPath: string, name: string, passed: boolean): void {
    const path = `${groupPath}::${name}`;
    let node = this.checks.get(path);
    if (!node) {
      node = { name, path, id: md5(path), passes: 0, fails: 0 };
      this.group(groupPath).checks.push(node);
      this.checks.set(path, node);
    }
    if (passed) node.passes += 1;
    else node.fails += 1;
  }

  /** Checks in first-seen order across the whole tree, as the text summary lists them. */
  orderedChecks(): CheckNode[] {
    return [...this.checks.values()];
  }
}
