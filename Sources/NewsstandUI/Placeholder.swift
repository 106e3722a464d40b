// NewsstandUI
