// Boxes in graph coordinates and a uniform grid that finds the items whose box meets an area (a virtualized scene's index).

/** An axis-aligned box in graph coordinates. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export function intersects(a: Box, b: Box): boolean {
  return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
}

export function contains(outer: Box, inner: Box): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

/** A uniform grid over the layout: each item is listed in the cells its box covers (very long items in `wide`). */
export class SpatialGrid<T> {
  private readonly cells = new Map<number, T[]>();
  private readonly wide: T[] = [];
  private readonly columns: number;

  constructor(
    private readonly cell: number,
    width: number,
    private readonly boxOf: (item: T) => Box,
    items: Iterable<T>,
  ) {
    this.columns = Math.max(1, Math.ceil(width / cell) + 1);
    for (const item of items) {
      const box = boxOf(item);
      const [left, top, right, bottom] = this.span(box);
      if ((right - left + 1) * (bottom - top + 1) > 64) {
        this.wide.push(item);
        continue;
      }
      for (let row = top; row <= bottom; row++) {
        for (let column = left; column <= right; column++) {
          const key = row * this.columns + column;
          const list = this.cells.get(key);
          if (list) list.push(item);
          else this.cells.set(key, [item]);
        }
      }
    }
  }

  private span(box: Box): [number, number, number, number] {
    const clampColumn = (value: number) => Math.min(this.columns - 1, Math.max(0, value));
    return [
      clampColumn(Math.floor(box.x / this.cell)),
      Math.max(0, Math.floor(box.y / this.cell)),
      clampColumn(Math.floor((box.x + box.width) / this.cell)),
      Math.max(0, Math.floor((box.y + box.height) / this.cell)),
    ];
  }

  /** Items whose box intersects `area`. */
  query(area: Box): Set<T> {
    const found = new Set<T>();
    const [left, top, right, bottom] = this.span(area);
    for (let row = top; row <= bottom; row++) {
      for (let column = left; column <= right; column++) {
        for (const item of this.cells.get(row * this.columns + column) ?? []) if (!found.has(item) && intersects(this.boxOf(item), area)) found.add(item);
      }
    }
    for (const item of this.wide) if (intersects(this.boxOf(item), area)) found.add(item);
    return found;
  }
}
