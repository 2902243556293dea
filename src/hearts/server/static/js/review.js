// Xem lại ván (review): a finished hand replayed trick by trick. Filled in below.
export class ReviewDialog {
  constructor({ current }) { this.current = current; }
  open() {}
}
