

def test_application_icon_ships_in_the_package() -> None:
    from aa_review.qt.app import app_icon

    icon = app_icon()
    assert not icon.isNull() and not icon.pixmap(64, 64).isNull()
